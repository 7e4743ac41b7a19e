import { Prisma, type App } from "@/generated/prisma/client";
import { recordAudit } from "@/lib/audit/record-audit";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import { findSession } from "./find-session";
import { presentCheck, presentSession } from "./present";
import { lockPendingReview } from "./review-session";
import { CHECKS_A_REVIEWER_SETTLES, type CheckReviewInput, type ReviewerSettledCheck } from "./schemas";

/**
 * A reviewer settles a check the engine left in `review` (README "Manual
 * review", an extension of spec 3.1): one of the three checks manual
 * approval needs. Liveness goes to review by design when the person took
 * the photosensitive alternative to the colour challenge
 * (`colour_challenge_skipped`) or the colour response was unclear
 * (`colour_response_unclear`); face match when the similarity falls in the
 * workflow's review margin; the document check when its reading is
 * borderline. The reviewer looks at the kept images (burst frames; the
 * document beside the best liveness frame; the document's sides) and
 * records `passed` or `failed`, with a reason. This settles the check only,
 * never the session: the reviewer then decides the session as always (PATCH
 * /api/v2/session/{id}/status), and APPROVED becomes possible once the
 * three checks have passed. The three: CHECKS_A_REVIEWER_SETTLES (schemas.ts).
 */
const isReviewerSettledCheck = (type: string): type is ReviewerSettledCheck => (CHECKS_A_REVIEWER_SETTLES as readonly string[]).includes(type);

/** The `{type}` of POST .../checks/{type}/review: one of CHECKS_A_REVIEWER_SETTLES, else 400 `invalid_request` naming them. */
export function parseReviewerSettledCheck(type: string): ReviewerSettledCheck {
  if (isReviewerSettledCheck(type)) return type;
  throw new ApiError("invalid_request", {
    message: `A reviewer settles only these checks: ${CHECKS_A_REVIEWER_SETTLES.join(", ")}`,
    data: { check: type, allowed: [...CHECKS_A_REVIEWER_SETTLES] },
  });
}

/** The rule: a reviewer may settle a check only while the engine left it in `review` (and only a check of CHECKS_A_REVIEWER_SETTLES). */
export function canReviewerSettleCheck(check: { type: string; status: string } | null | undefined): boolean {
  return !!check && check.status === "review" && isReviewerSettledCheck(check.type);
}

/** The rule as a refusal: 409 `check_not_in_review`, naming the check's status. */
export function assertReviewerCanSettleCheck(type: string, check: { type: string; status: string } | null | undefined): void {
  if (!canReviewerSettleCheck(check)) {
    const status = check?.status ?? "not_performed";
    throw new ApiError("check_not_in_review", { message: `The ${type} check is ${status}, not in review`, data: { check: type, status } });
  }
}

/** What a failed manual review says in the check's `error`: one code, a message per check. */
const REVIEW_FAILED: Record<ReviewerSettledCheck, { code: "manual_review_failed"; message: string }> = {
  liveness: { code: "manual_review_failed", message: "A reviewer looked at the captured frames and did not confirm a live person" },
  face_match: { code: "manual_review_failed", message: "A reviewer compared the document with the liveness frame and did not confirm the same person" },
  id_verification: { code: "manual_review_failed", message: "A reviewer looked at the document's images and did not accept the document" },
};

/**
 * Settles the session's `type` check in review (`type` as the URL names it:
 * parseReviewerSettledCheck first, so an unknown one is 400 before any lookup), for the client's review
 * tools (API key) and the portal's review queue (a signed-in developer):
 * session row locked, IN_REVIEW or 409 `review_not_pending`, the check in
 * review or 409 `check_not_in_review`. The check's new status goes with a
 * `manual_review` entry in its data (status, reason, time) and evidence
 * (also the actor, the request and the machine's own status, score and
 * error; the machine evidence stays), and an audit row
 * `check.manual_review`, in one transaction.
 */
export async function settleCheckInReview(
  app: App,
  sessionId: string,
  typeName: string,
  input: CheckReviewInput,
  who: { actor: string; requestId: string },
) {
  const type = parseReviewerSettledCheck(typeName);
  const found = await findSession(app, sessionId);
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    await lockPendingReview(tx, found.id);
    const check = await tx.checkResult.findUnique({ where: { sessionId_type: { sessionId: found.id, type } } });
    assertReviewerCanSettleCheck(type, check);
    const at = now();
    const review = { status: input.status, reason: input.reason, reviewed_at: at.toISOString() };
    const machine = { status: check!.status, score: check!.score, error: check!.error };
    const updated = await tx.checkResult.update({
      where: { id: check!.id },
      data: {
        status: input.status,
        error: input.status === "passed" ? Prisma.DbNull : REVIEW_FAILED[type],
        data: { ...(check!.data as object), manual_review: review },
        evidence: { ...(check!.evidence as object), manual_review: { ...review, actor: who.actor, request_id: who.requestId, machine } },
      },
    });
    await recordAudit(tx, {
      organizationId: app.organizationId,
      appId: app.id,
      actor: who.actor,
      action: "check.manual_review",
      target: found.id,
      data: { check: type, from: "review", to: input.status, reason: input.reason, at: at.toISOString() },
      requestId: who.requestId,
    });
    const session = await tx.session.findUniqueOrThrow({ where: { id: found.id } });
    return { check: presentCheck(type, updated, false), session: presentSession(session) };
  });
}
