/**
 * The contract's enumerations that the platform needs as well as the
 * domains: the configuration validates CHECK_PRICES by feature and
 * FACE_SIGN_IN_ACTIONS by liveness action. They sit here, below both, so
 * lib/config imports no domain (docs/architecture.md "Layers inside lib/");
 * lib/workflows re-exports them where workflows are defined.
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
