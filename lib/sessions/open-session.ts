import { now } from "@/lib/clock";
import type { Tx } from "@/lib/db/client";
import { prepareQuery, runPreparedInTransaction, typedSql } from "@/lib/db/typed-sql";
import { ApiError } from "@/lib/http/api-error";
import { isTerminal } from "./statuses";

/**
 * The one "open session" rule (docs/sessions.md "Session lifecycle"): a session takes
 * checks and can be finished only while it is NOT_STARTED or IN_PROGRESS
 * and before `expires_at`.
 * - EXPIRED or ABANDONED: 410 `session_expired`;
 * - decided (APPROVED, DECLINED) or waiting for review (IN_REVIEW, which
 *   never expires): 409 `session_closed`, also once `expires_at` has passed;
 * - open but past `expires_at` (not swept yet): 410 `session_expired`.
 */
export function assertSessionOpen(session: { status: string; expiresAt: Date }, at: Date = now()): void {
  if (hasSessionExpired(session, at)) throw new ApiError("session_expired", { message: "This verification session has expired" });
  if (isTerminal(session.status) || session.status === "IN_REVIEW") {
    throw new ApiError("session_closed", { message: `This verification session is already ${session.status}` });
  }
}

/**
 * Expired: EXPIRED or ABANDONED, or still open (NOT_STARTED, IN_PROGRESS)
 * past `expires_at` and not swept yet. Decided and IN_REVIEW sessions never
 * expire.
 */
export function hasSessionExpired(session: { status: string; expiresAt: Date }, at: Date = now()): boolean {
  if (session.status === "EXPIRED" || session.status === "ABANDONED") return true;
  return !isTerminal(session.status) && session.status !== "IN_REVIEW" && session.expiresAt <= at;
}

const lockSession = prepareQuery("session_lock", (v: { sessionId: string }) =>
  typedSql
    .selectFrom("sessions as s")
    .innerJoin("apps as a", "a.id", "s.app_id")
    .select([
      "s.id",
      "s.app_id as appId",
      "s.status",
      "s.features",
      "s.expires_at as expiresAt",
      "s.started_at as startedAt",
      "a.organization_id as organizationId",
    ])
    .where("s.id", "=", v.sessionId)
    .forUpdate("s"),
);

/**
 * Locks the session's row for the rest of the transaction (concurrent
 * writers of one session serialise) and checks it is open: 404
 * `session_not_found`, else as assertSessionOpen.
 */
export async function lockOpenSession(tx: Tx, sessionId: string, at: Date = now()) {
  const [session] = await runPreparedInTransaction(tx, lockSession, { sessionId });
  if (!session) throw new ApiError("session_not_found");
  assertSessionOpen(session, at);
  return session;
}

export type LockedSession = Awaited<ReturnType<typeof lockOpenSession>>;
