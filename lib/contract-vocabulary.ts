/**
 * The contract's enumerations that more than one layer needs: the
 * configuration validates CHECK_PRICES by feature and FACE_SIGN_IN_ACTIONS
 * by liveness action, and the decision rule (lib/decisions) names session
 * statuses. They sit here, below all of them, so no lower layer imports a
 * higher one (docs/architecture.md "Layers inside lib/"); lib/workflows and
 * lib/sessions re-export them where they are defined for their domains.
 */

/** Spec 2.3: the features a workflow can run. */
export const FEATURES = [
  "id_verification",
  "liveness",
  "face_match",
  "credential",
  "age",
  "location",
  "face_uniqueness",
] as const;
export type Feature = (typeof FEATURES)[number];

/**
 * Liveness actions (docs/hosted-flow.md "Liveness actions"). The first three are the
 * original ones: workflows stored with them (and any `actions_per_challenge`
 * from 1 to 3) keep working unchanged.
 */
export const LIVENESS_ACTIONS = ["turn_left", "turn_right", "blink", "look_up", "look_down", "smile"] as const;
export type LivenessAction = (typeof LIVENESS_ACTIONS)[number];

/** Session states (spec 3.1 plus IN_PROGRESS, set when the person starts the hosted flow). */
export const SESSION_STATUSES = [
  "NOT_STARTED",
  "IN_PROGRESS",
  "IN_REVIEW",
  "APPROVED",
  "DECLINED",
  "EXPIRED",
  "ABANDONED",
] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/** Check statuses: spec 2.2 names passed and failed; the rest are ours. */
export const CHECK_STATUSES = ["passed", "failed", "review", "pending", "not_performed"] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/** The statuses of a check that ran: what a hosted step records and answers. */
export type RanStatus = Extract<CheckStatus, "passed" | "failed" | "review">;

/**
 * A stored text as one of its vocabulary's values (a session's status, a
 * feature, a member's role read from a text column): presenters answer the
 * contract's literal types, and a value outside the vocabulary is a
 * corrupted row, refused here (a 500 in the request's log) rather than sent.
 */
export function vocabularyValue<const T extends string>(vocabulary: readonly T[], stored: string, what: string): T {
  if ((vocabulary as readonly string[]).includes(stored)) return stored as T;
  throw new Error(`stored ${what} "${stored}" is not one of ${vocabulary.join(", ")}`);
}

/** A stored feature name (a session's or a workflow's `features`) as the contract's Feature. */
export const storedFeature = (stored: string): Feature => vocabularyValue(FEATURES, stored, "feature");

/** A session's stored status as the contract's SessionStatus. */
export const storedSessionStatus = (stored: string): SessionStatus => vocabularyValue(SESSION_STATUSES, stored, "session status");
