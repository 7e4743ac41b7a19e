import type { App } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { db, type Tx } from "@/lib/db/client";
import { recordAudit } from "@/lib/audit/record-audit";
import { canApproveManually, type CheckOutcome } from "@/lib/decisions/decide";
import { ApiError } from "@/lib/http/api-error";
import { settleSessionOutcome } from "./settle-outcome";
import { findSession } from "./find-session";
import { presentSession } from "./present";
import { prepareQuery, runPreparedInTransaction, typedSql } from "@/lib/db/typed-sql";

/**
 * PATCH /api/v2/session/{id}/status: the manual decision of an IN_REVIEW
 * session (spec 3.1). APPROVED needs passed id_verification, liveness and
 * face_match (409 required_face_checks_incomplete); DECLINED always; any
 * state but IN_REVIEW is 409 review_not_pending. The change, its audit row
 * and its event commit together; of two racing reviewers one wins, the
 * other gets review_not_pending.
 */
/** The review rule: only an IN_REVIEW session may be decided by hand, else 409 `review_not_pending`. */
export function assertReviewPending(status: string | null): void {
  if (status !== "IN_REVIEW") {
    throw new ApiError("review_not_pending", {
      message: `Session is ${status ?? "gone"}, not IN_REVIEW`,
      data: { status },
    });
  }
}

/** Locks the session's row in `tx` and applies the review rule (assertReviewPending) to its current status. */
export async function lockPendingReview(tx: Tx, sessionId: string): Promise<void> {
  const [locked] = await runPreparedInTransaction(tx, lockedSessionStatus, { id: sessionId });
  assertReviewPending(locked?.status ?? null);
}

const lockedSessionStatus = prepareQuery("session_status_for_update", (v: { id: string }) =>
  typedSql.selectFrom("sessions").select("status").where("id", "=", v.id).forUpdate(),
);

export async function reviewSession(
  app: App,
  id: string,
  to: "APPROVED" | "DECLINED",
  who: { actor: string; requestId: string },
) {
  const found = await findSession(app, id);
  const prisma = await db();
  const updated = await prisma.$transaction(async (tx) => {
    await lockPendingReview(tx, found.id);
    if (to === "APPROVED") {
      const checks = await tx.checkResult.findMany({ where: { sessionId: found.id } });
      if (!canApproveManually(checks as CheckOutcome[])) {
        throw new ApiError("required_face_checks_incomplete", {
          message: "Approval needs passed id_verification, liveness and face_match checks",
          data: { checks: Object.fromEntries(checks.map((c) => [c.type, c.status])) },
        });
      }
    }
    const at = now();
    const session = await tx.session.update({
      where: { id: found.id },
      data: { status: to, decidedAt: at, completedAt: found.completedAt ?? at },
    });
    await recordAudit(tx, {
      organizationId: app.organizationId,
      appId: app.id,
      actor: who.actor,
      action: "session.manual_decision",
      target: found.id,
      data: { from: "IN_REVIEW", to, at: at.toISOString() },
      requestId: who.requestId,
    });
    await settleSessionOutcome(tx, session, to, at);
    return session;
  });
  return presentSession(updated);
}
