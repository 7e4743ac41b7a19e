import type { Session } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { decide, type CheckOutcome } from "@/lib/decisions/decide";
import { isRecoverySession } from "@/lib/workflows/recovery-purpose";
import { settleSessionOutcome } from "./settle-outcome";
import { lockOpenSession } from "./open-session";

/**
 * The person finished the hosted flow: the decision engine turns the check
 * results into APPROVED, DECLINED or IN_REVIEW. Checks of the workflow that
 * never ran are recorded as `not_performed` (not billed). APPROVED and
 * DECLINED are terminal and carry `decided_at`; IN_REVIEW waits for a
 * manual decision. Each outcome emits its event in the same transaction.
 */
export async function completeSession(sessionId: string) {
  return (await completeSessionIf(sessionId, () => true))!;
}

/**
 * completeSession, but only when `shouldDecide` says so for the session and
 * its results read under the row lock (null otherwise, nothing written): a
 * check that already decides the session ends it there
 * (lib/checks/stop-at-decisive-failure.ts).
 */
export async function completeSessionIf(
  sessionId: string,
  shouldDecide: (session: Session, results: readonly CheckOutcome[]) => boolean,
): Promise<Session | null> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const at = now();
    await lockOpenSession(tx, sessionId, at);
    const session = await tx.session.findUniqueOrThrow({ where: { id: sessionId } });
    const results = await tx.checkResult.findMany({ where: { sessionId } });
    if (!shouldDecide(session, results as CheckOutcome[])) return null;
    const ran = new Set(results.map((r) => r.type));
    for (const type of session.features.filter((f) => !ran.has(f))) {
      await tx.checkResult.create({
        data: {
          sessionId,
          type,
          status: "not_performed",
          error: { code: "not_performed", message: "The session finished without this check" },
        },
      });
    }
    const verdict = decide(session.features, results as CheckOutcome[], { reviewable: !isRecoverySession(session.workflowSnapshot) });
    const updated = await tx.session.update({
      where: { id: sessionId },
      data: {
        status: verdict,
        startedAt: session.startedAt ?? at,
        completedAt: at,
        decidedAt: verdict === "IN_REVIEW" ? null : at,
      },
    });
    await settleSessionOutcome(tx, updated, verdict, at);
    return updated;
  });
}
