import { createHmac } from "node:crypto";

/**
 * Spec 6: `X-Svc-Signature` is the lowercase hex HMAC-SHA256 of
 * `<timestamp>.<rawBody>`, keyed by the endpoint's signing secret (the whole
 * `whsec_...` string, as UTF-8).
 */
export function signWebhook(secret: string, timestamp: number, rawBody: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest("hex");
}

/**
 * The `X-Svc-Signature` value: one signature per secret, comma separated,
 * the current secret's first. Outside a roll there is one secret, so the
 * header is exactly the spec's single hex signature; during a roll's
 * overlap window the previous secret signs too (`<new>,<old>`), so a
 * receiver still holding either secret verifies (it accepts the delivery
 * when any one of the signatures matches).
 */
export function signatureHeader(secrets: readonly string[], timestamp: number, rawBody: string): string {
  return secrets.map((secret) => signWebhook(secret, timestamp, rawBody)).join(",");
}

export function webhookHeaders(secrets: readonly string[], eventId: string, rawBody: string, timestamp: number) {
  return {
    "Content-Type": "application/json",
    "User-Agent": "svc-webhooks/1",
    "X-Svc-Timestamp": String(timestamp),
    "X-Svc-Event-Id": eventId,
    "X-Svc-Signature": signatureHeader(secrets, timestamp, rawBody),
  };
}
