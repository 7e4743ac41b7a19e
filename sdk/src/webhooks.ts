import { createHmac, timingSafeEqual } from "node:crypto";
import type { components } from "./schema.js";

/**
 * Receiving the service's webhooks (the receiver rules of docs/spec.md
 * section 6): verify the signature before trusting anything, reject stale or
 * future timestamps (300 s tolerance), answer an invalid signature with 400
 * (never 200), process each event id once (the DedupStore hook), acknowledge
 * fast with a 2xx. Depends only on node:crypto (and the generated types).
 */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export class WebhookVerificationError extends Error {
  readonly status = 400;
}

/** The body of a delivery: the OpenAPI document's `WebhookEvent`. */
export type VerifiedEvent = components["schemas"]["WebhookEvent"];

export type VerifyOptions = {
  /** Largest distance in seconds between X-Svc-Timestamp and now (default 300). */
  toleranceSeconds?: number;
  /** "Now" in Unix seconds (tests). */
  nowSeconds?: number;
};

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Verifies one delivery from its raw body (the exact bytes received, before
 * any JSON parsing) and headers; returns the event or throws
 * WebhookVerificationError (answer 400). `X-Svc-Signature` holds one
 * signature, or while the webhook's secret is being rolled, one per secret
 * (comma separated): the delivery verifies when one of them is `secret`'s.
 */
export function verifyWebhook(rawBody: string, headers: HeaderSource, secret: string, options: VerifyOptions = {}): VerifiedEvent {
  const timestamp = header(headers, "x-svc-timestamp");
  const signature = header(headers, "x-svc-signature");
  const eventId = header(headers, "x-svc-event-id");
  if (!timestamp || !signature || !eventId) throw new WebhookVerificationError("missing signature headers");
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError("bad timestamp");
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(now - Number(timestamp)) > tolerance) throw new WebhookVerificationError("timestamp outside the tolerance");
  const expected = createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest();
  // One signature, or during a secret roll's overlap window several, comma separated (the new secret's first): any one may match.
  const matches = signature.split(",").some((candidate) => {
    const given = /^[0-9a-f]{64}$/.test(candidate.trim()) ? Buffer.from(candidate.trim(), "hex") : Buffer.alloc(0);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError("invalid signature");
  let event: VerifiedEvent;
  try {
    event = JSON.parse(rawBody) as VerifiedEvent;
  } catch {
    throw new WebhookVerificationError("body is not JSON");
  }
  if (event.event_id !== eventId) throw new WebhookVerificationError("event id header and body disagree");
  return event;
}

/** Remembers processed event ids. `claim` is true the first time an id is seen. */
export interface DedupStore {
  claim(eventId: string): Promise<boolean>;
}

/** In-memory store for one process; use your database (a unique key on the event id) across processes. */
export class MemoryDedupStore implements DedupStore {
  private seen = new Map<string, number>();
  constructor(private readonly ttlMs = 24 * 3600 * 1000) {}
  async claim(eventId: string): Promise<boolean> {
    const now = Date.now();
    for (const [id, at] of this.seen) {
      if (now - at < this.ttlMs) break;
      this.seen.delete(id);
    }
    if (this.seen.has(eventId)) return false;
    this.seen.set(eventId, now);
    return true;
  }
}

/**
 * A complete Web-standard handler (Next.js route handlers, Bun, Deno, ...):
 * 400 on a bad signature, 200 `{ received: true, duplicate }` otherwise;
 * `onEvent` runs once per event id.
 */
export async function handleWebhookRequest(
  req: Request,
  options: { secret: string; store: DedupStore; onEvent(event: VerifiedEvent): Promise<void> | void; toleranceSeconds?: number },
): Promise<Response> {
  const rawBody = await req.text();
  let event: VerifiedEvent;
  try {
    event = verifyWebhook(rawBody, req.headers, options.secret, { toleranceSeconds: options.toleranceSeconds });
  } catch (err) {
    return Response.json({ error: (err as Error).message }, { status: 400 });
  }
  const first = await options.store.claim(event.event_id);
  if (first) await options.onEvent(event);
  return Response.json({ received: true, duplicate: !first });
}
