import type { CheckStatus } from "@/lib/contract-vocabulary";

export type CheckOutcome = { type: string; status: CheckStatus };
export type Verdict = "APPROVED" | "DECLINED" | "IN_REVIEW";

/**
 * The decision engine: the session's outcome from its checks.
 * 1. A feature of the workflow with no result counts as `not_performed`, a failure.
 * 2. Any `failed` or `not_performed` check -> DECLINED (a hard failure wins).
 * 3. Else any `review` check (a borderline result: face similarity within
 *    the review margin under the threshold, a low-confidence document read,
 *    an unreachable licence registry) -> IN_REVIEW.
 * 4. Else every check passed -> APPROVED.
 * Without review (`reviewable: false`, account recovery), step 3 declines.
 */
export function decide(features: readonly string[], checks: readonly CheckOutcome[], options: { reviewable: boolean } = { reviewable: true }): Verdict {
  const byType = new Map(checks.map((c) => [c.type, c.status]));
  const statuses = features.map((f) => byType.get(f) ?? "not_performed");
  if (statuses.some((s) => s === "failed" || s === "not_performed" || s === "pending")) return "DECLINED";
  if (statuses.some((s) => s === "review")) return options.reviewable ? "IN_REVIEW" : "DECLINED";
  return "APPROVED";
}

/** Spec 3.1: a manual approval needs these three checks passed. */
export const REQUIRED_FOR_MANUAL_APPROVAL = ["id_verification", "liveness", "face_match"] as const;

export function canApproveManually(checks: readonly CheckOutcome[]): boolean {
  const byType = new Map(checks.map((c) => [c.type, c.status]));
  return REQUIRED_FOR_MANUAL_APPROVAL.every((t) => byType.get(t) === "passed");
}

/**
 * Whether the outcome is DECLINED whatever the checks still to come give:
 * the decision engine run with every feature that has no final result
 * assumed `passed` (the best the rest can do) still declines. The hosted
 * flow stops there (lib/checks/stop-at-decisive-failure.ts). A `review`
 * never seals the outcome: a reviewer can still approve.
 */
export function declinedWhateverFollows(features: readonly string[], finalChecks: readonly CheckOutcome[]): boolean {
  const byType = new Map(finalChecks.map((c) => [c.type, c.status]));
  const best = features.map((type) => ({ type, status: byType.get(type) ?? "passed" }) as CheckOutcome);
  return decide(features, best) === "DECLINED";
}
