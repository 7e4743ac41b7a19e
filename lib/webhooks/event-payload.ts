import { z } from "zod";
import { EVENT_TYPES, SESSION_EVENT_STATUSES } from "./event-types";

/**
 * The JSON body of every webhook delivery (spec 6), as the outbox builds it
 * (outbox.ts enqueueSessionEvent, test-events.ts): a notification only; the
 * full result is read from the decision endpoint. Documented in the OpenAPI
 * document's `webhooks`.
 */
export const WebhookEventPayload = z
  .object({
    event_id: z.string().meta({ description: "Unique event id; equals the `X-Svc-Event-Id` header. De-duplicate on it." }),
    type: z.enum(EVENT_TYPES).meta({
      description:
        "`verification.approved` when a session is approved, `verification.completed` for every other outcome; `verify.approved` / `verify.declined` for a finished account recovery.",
    }),
    session_id: z.string(),
    status: z.enum(SESSION_EVENT_STATUSES),
    vendor_data: z.string().nullable(),
    decision: z.string().meta({ description: "The status in lower case, e.g. `approved`." }),
    occurred_at: z.iso.datetime(),
    test: z.literal(true).optional().meta({ description: "Present on simulated events from the test tooling (session id `sess_test_…`)." }),
  })
  .meta({ id: "WebhookEvent" });

export type WebhookEventPayload = z.infer<typeof WebhookEventPayload>;

/** The headers of every delivery (spec 6), documented with the payload. */
export const WEBHOOK_HEADERS = {
  "X-Svc-Timestamp": "Unix seconds when the event was signed. Reject deliveries older than 300 seconds.",
  "X-Svc-Event-Id": "Unique event id; equals the body's `event_id`.",
  "X-Svc-Signature":
    "Lowercase hex HMAC-SHA256 of `<timestamp>.<rawBody>`, keyed by the webhook's signing secret. While the secret is being rolled (the previous one's overlap window), one signature per secret, comma separated, the new one's first: accept the delivery when any one matches.",
} as const;
