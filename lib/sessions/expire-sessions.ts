import type { Session } from "@/generated/prisma/client";
import { now as clockNow } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { settleSessionOutcome } from "./settle-outcome";
import { OPEN_STATUSES } from "./statuses";

/**
 * Expiry (docs/sessions.md "Session lifecycle"): a session still open at `expires_at`
 * ends. Never started (NOT_STARTED) -> EXPIRED; the person started the
 * hosted flow and left midway (IN_PROGRESS) -> ABANDONED. Both are
 * terminal and emit an event. Applied by the session expiry job (every minute,
 * lib/server/scheduled-jobs.ts) and on every read, with a conditional update
 * so a read and a run racing end a session once.
 */
export async function expireSession(session: Session, at: Date = clockNow()): Promise<Session> {
  if (!OPEN_STATUSES.includes(session.status as (typeof OPEN_STATUSES)[number]) || session.expiresAt > at) {
    return session;
  }
  const to = session.status === "NOT_STARTED" ? "EXPIRED" : "ABANDONED";
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const changed = await tx.session.updateMany({
      where: { id: session.id, status: session.status, expiresAt: { lte: at } },
      data: { status: to, completedAt: at },
    });
    if (changed.count === 1) await settleSessionOutcome(tx, session, to, at);
    return tx.session.findUniqueOrThrow({ where: { id: session.id } });
  });
}

/** Ends every due session (optionally of one app), in batches. Returns how many ended. */
export async function expireDueSessions(options: { appId?: string; at?: Date; batch?: number } = {}): Promise<number> {
  const at = options.at ?? clockNow();
  const prisma = await db();
  let total = 0;
  for (;;) {
    const due = await prisma.session.findMany({
      where: { status: { in: [...OPEN_STATUSES] }, expiresAt: { lte: at }, ...(options.appId ? { appId: options.appId } : {}) },
      take: options.batch ?? 200,
      orderBy: { expiresAt: "asc" },
    });
    for (const session of due) {
      const after = await expireSession(session, at);
      if (after.status !== session.status) total++;
    }
    if (due.length < (options.batch ?? 200)) return total;
  }
}
