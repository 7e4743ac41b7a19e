/**
 * Names shared by the server and the portal's client components (no
 * server-only imports here): the simulated event kinds of the test tooling
 * (spec 6) and the states of a delivery in the log.
 */
export const TEST_EVENT_KINDS = ["approved", "declined", "in_review", "expired", "duplicate", "bad_signature"] as const;
export type TestEventKind = (typeof TEST_EVENT_KINDS)[number];

export const DELIVERY_STATES = ["pending", "succeeded", "failed"] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];
