import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { UUID_PATTERN } from "@/lib/http/validation";
import { OPEN_STATUSES, type SessionStatus } from "./statuses";

/** Expired or abandoned, or still open past `expires_at` (not swept yet): the hosted page only says so. */
function hasExpired(session: { status: string; expiresAt: Date }, at: Date): boolean {
  if (session.status === "EXPIRED" || session.status === "ABANDONED") return true;
  return OPEN_STATUSES.includes(session.status as SessionStatus) && session.expiresAt <= at;
}

/**
 * The origins whose pages may show the hosted page of this session in a
 * frame: those its app registered (README "The hosted verification page").
 * None for an unknown or expired session.
 */
export async function frameOriginsOfSession(sessionId: string, at: Date = now()): Promise<string[]> {
  if (!UUID_PATTERN.test(sessionId)) return [];
  const prisma = await db();
  const session = await prisma.session.findUnique({
    where: { id: sessionId },
    select: { status: true, expiresAt: true, app: { select: { frameOrigins: true } } },
  });
  if (!session || hasExpired(session, at)) return [];
  return session.app.frameOrigins;
}
