/**
 * Names shared by the server and the portal's client components (no
 * server-only imports here): the simulated event kinds of the test tooling
 * (spec 6) and the states of a delivery in the log.
 */
export const TEST_EVENT_KINDS = ["approved", "declined", "in_review", "expired", "duplicate", "bad_signature"] as const;
export type TestEventKind = (typeof TEST_EVENT_KINDS)[number];

/**
 * `pending`: due or retrying (held, not attempted, while its webhook is
 * disabled); `succeeded`: a 2xx; `failed`: the last attempt failed;
 * `cancelled`: its webhook was deleted before it succeeded, never attempted
 * again.
 */
export const DELIVERY_STATES = ["pending", "succeeded", "failed", "cancelled"] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];
