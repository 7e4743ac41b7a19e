import type { Prisma } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { db, type Tx } from "@/lib/db/client";
import { PORTAL_SESSION_MAX_AGE_SECONDS, type PortalSession } from "./session-cookie";

/**
 * Server-side records of developer portal sign-ins (`developer_sessions`).
 * next-auth's Credentials provider needs JWT sessions, so the cookie alone
 * would stay valid until it expires; instead it carries the id of a row made
 * at sign-in (lib/portal/auth-options.ts), and every path that trusts the
 * cookie asks `liveSessionWhere` (one primary-key lookup, no cache), so
 * ending the row ends the session at once, on every instance:
 * - sign-out ends that one session (lib/portal/next-auth-route.ts, before next-auth clears the cookie);
 * - a password change or reset ends all of the developer's sessions;
 * - `endDeveloperSessions` is the call for removing a developer from an
 *   organization (nothing removes one today; deleting a developer deletes
 *   their rows).
 * A session lasts PORTAL_SESSION_MAX_AGE_SECONDS from sign-in; a periodic
 * job (every 10 minutes) deletes rows past it.
 */

/** THE rule: a portal session is live while its row exists, belongs to the cookie's developer, is not ended and not expired. */
export function liveSessionWhere(session: PortalSession, at: Date = now()): Prisma.DeveloperSessionWhereInput {
  return { id: session.sessionId, developerId: session.developerId, endedAt: null, expiresAt: { gt: at } };
}

/** Records a sign-in; its id goes into the session cookie. */
export async function startDeveloperSession(developerId: string): Promise<{ id: string }> {
  const prisma = await db();
  const at = now();
  return prisma.developerSession.create({
    data: { developerId, createdAt: at, expiresAt: new Date(at.getTime() + PORTAL_SESSION_MAX_AGE_SECONDS * 1000) },
    select: { id: true },
  });
}

/** Sign-out: ends this one session (a no-op when it already ended). */
export async function endDeveloperSession(sessionId: string): Promise<void> {
  const prisma = await db();
  await prisma.developerSession.updateMany({ where: { id: sessionId, endedAt: null }, data: { endedAt: now() } });
}

/** Ends every open session of the developer (password change or reset, removal from an organization); pass `tx` to end them with the change. */
export async function endDeveloperSessions(developerId: string, tx?: Tx): Promise<number> {
  const client = tx ?? (await db());
  const ended = await client.developerSession.updateMany({ where: { developerId, endedAt: null }, data: { endedAt: now() } });
  return ended.count;
}

/** Deletes the rows of sessions past their expiry (ended or not): nothing can use them any more. */
export async function purgeExpiredDeveloperSessions(at: Date = now()): Promise<number> {
  const prisma = await db();
  const purged = await prisma.developerSession.deleteMany({ where: { expiresAt: { lte: at } } });
  return purged.count;
}
