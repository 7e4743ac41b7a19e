import { createHmac } from "node:crypto";

/**
 * Spec 6: `X-Svc-Signature` is the lowercase hex HMAC-SHA256 of
 * `<timestamp>.<rawBody>`, keyed by the endpoint's signing secret (the whole
 * `whsec_...` string, as UTF-8).
 */
export function signWebhook(secret: string, timestamp: number, rawBody: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest("hex");
}

export function webhookHeaders(secret: string, eventId: string, rawBody: string, timestamp: number) {
  return {
    "Content-Type": "application/json",
    "User-Agent": "svc-webhooks/1",
    "X-Svc-Timestamp": String(timestamp),
    "X-Svc-Event-Id": eventId,
    "X-Svc-Signature": signWebhook(secret, timestamp, rawBody),
  };
}
