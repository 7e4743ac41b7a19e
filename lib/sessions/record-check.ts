import { Prisma } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { applyLedgerEntry } from "@/lib/billing/ledger";
import { checkPrices } from "@/lib/billing/prices";
import { ApiError } from "@/lib/http/api-error";
import type { ErrorCode } from "@/lib/http/error-catalogue";
import { saveJsonArtifact, type ArtifactKind } from "@/lib/artifacts/artifacts";
import type { Feature } from "@/lib/workflows/schemas";
import { lockOpenSession } from "./open-session";
import type { CheckStatus } from "./statuses";

export type CheckResultInput = {
  sessionId: string;
  type: Feature;
  status: Extract<CheckStatus, "passed" | "failed" | "review">;
  score?: number | null;
  data?: Record<string, unknown>;
  error?: { code: string; message: string } | null;
  /** Audit trail (input hashes, model versions, timings, measurements); kept, never in the API's `data`. */
  evidence?: Record<string, unknown>;
  /** false: a check that could not run (a licence registry that did not answer) is recorded without a charge. */
  billable?: boolean;
  /** A passed result is final: another result for it is refused with this error (the credential check). */
  keepPassed?: ErrorCode;
  /** Session artifacts written (value) or removed (null) with the result, in its transaction. */
  artifacts?: Partial<Record<ArtifactKind, unknown | null>>;
};

/**
 * Records the result of a check that ran for a session, and bills it: the
 * check's price is charged once per (session, check) however often it is
 * retried (the ledger reference `check:<session>:<type>`), a retry only
 * replaces the result. The session row is locked, so concurrent retries
 * serialise; a wallet that cannot pay is 402 and nothing is recorded. The
 * first result moves a NOT_STARTED session to IN_PROGRESS. Only an open
 * session takes checks (lockOpenSession: 409 session_closed, 410
 * session_expired).
 */
export async function recordCheckResult(input: CheckResultInput) {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const at = now();
    const session = await lockOpenSession(tx, input.sessionId, at);
    if (!session.features.includes(input.type)) {
      throw new ApiError("invalid_request", { message: `${input.type} is not a check of this session's workflow` });
    }
    if (input.keepPassed) {
      const current = await tx.checkResult.findUnique({ where: { sessionId_type: { sessionId: session.id, type: input.type } }, select: { status: true } });
      if (current?.status === "passed") throw new ApiError(input.keepPassed);
    }
    const price = input.billable === false ? 0 : checkPrices()[input.type];
    const charge = price > 0
      ? await applyLedgerEntry(tx, {
          organizationId: session.organizationId,
          amountCents: -price,
          kind: "check_charge",
          reference: `check:${session.id}:${input.type}`,
          description: `${input.type} check, session ${session.id}`,
        })
      : { applied: false };
    const values = {
      status: input.status,
      score: input.score ?? null,
      data: (input.data ?? {}) as object,
      error: input.error ? (input.error as object) : Prisma.DbNull,
      evidence: (input.evidence ?? {}) as object,
    };
    const result = await tx.checkResult.upsert({
      where: { sessionId_type: { sessionId: session.id, type: input.type } },
      create: { sessionId: session.id, type: input.type, ...values },
      update: { ...values, attempts: { increment: 1 } },
    });
    for (const [kind, value] of Object.entries(input.artifacts ?? {}) as Array<[ArtifactKind, unknown]>) {
      if (value === null) await tx.sessionArtifact.deleteMany({ where: { sessionId: session.id, kind } });
      else await saveJsonArtifact(session.id, kind, value, tx);
    }
    if (session.status === "NOT_STARTED") {
      await tx.session.update({ where: { id: session.id }, data: { status: "IN_PROGRESS", startedAt: at } });
    }
    return { result, charged: charge.applied };
  });
}
