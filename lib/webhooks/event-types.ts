/**
 * Event `type` values. Spec 6 names exactly four and does not show the
 * mapping; only those four are used (docs/webhooks.md has the table):
 * a session reaching APPROVED sends `verification.approved`, every other
 * outcome `verification.completed` (its `status` and `decision` say which);
 * a finished account-recovery session sends `verify.approved` (pass) or
 * `verify.declined` (fail).
 */

/** The session outcomes that emit an event (spec 6 "Status values seen in events"). */
/** Every event `type` a delivery carries: a session's outcome (`verification.*`) or a finished account recovery (`verify.*`). */
export const EVENT_TYPES = ["verification.approved", "verification.completed", "verify.approved", "verify.declined"] as const;

export const SESSION_EVENT_STATUSES = ["APPROVED", "DECLINED", "IN_REVIEW", "EXPIRED", "ABANDONED"] as const;
export type SessionEventStatus = (typeof SESSION_EVENT_STATUSES)[number];

export function isSessionEventStatus(status: string): status is SessionEventStatus {
  return (SESSION_EVENT_STATUSES as readonly string[]).includes(status);
}

/** The event type of a verification session's outcome (real or simulated by the test tooling). */
export function sessionEventType(status: SessionEventStatus): "verification.approved" | "verification.completed" {
  return status === "APPROVED" ? "verification.approved" : "verification.completed";
}

/**
 * The event type of a finished account-recovery session, delivered to the
 * project webhook (spec 6: "a finished account-recovery session emits a pass
 * (APPROVED) or fail (DECLINED) event"): `verify.approved` for a pass,
 * `verify.declined` for a fail. The event's `status` is APPROVED or DECLINED
 * accordingly. To be called by the recovery code of the organization API.
 */
export function recoveryEventType(outcome: "pass" | "fail"): "verify.approved" | "verify.declined" {
  return outcome === "pass" ? "verify.approved" : "verify.declined";
}
