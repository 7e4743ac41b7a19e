import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { dueEvery } from "@/lib/process-slots";

/**
 * Forgets what has expired: sign-in requests and codes, authorization codes,
 * access tokens, browsers' sign-in sessions, and grants (with their refresh
 * tokens, which cascade) a day after the login ended. Used refresh tokens
 * are kept until then so a replay is still recognised. The deletes are
 * idempotent, so several instances can run it.
 */
export async function purgeExpiredOidcRows(): Promise<void> {
  const prisma = await db();
  const at = now();
  const dayAgo = new Date(at.getTime() - 24 * 3600_000);
  await prisma.oidcInteraction.deleteMany({ where: { expiresAt: { lt: dayAgo } } });
  await prisma.accountLoginCode.deleteMany({ where: { expiresAt: { lt: dayAgo } } });
  await prisma.oidcAuthorizationCode.deleteMany({ where: { expiresAt: { lt: at } } });
  await prisma.oidcAccessToken.deleteMany({ where: { expiresAt: { lt: at } } });
  await prisma.oidcGrant.deleteMany({ where: { expiresAt: { lt: dayAgo } } });
  await prisma.oidcSession.deleteMany({ where: { expiresAt: { lt: at } } });
}

/** How often the sweeper runs it: the rows are small and a day's grace is kept anyway. */
const OIDC_PURGE_EVERY_MS = 10 * 60 * 1000;

/** purgeExpiredOidcRows at most every 10 minutes: one of the sweeper's tasks (lib/sessions/expiry-sweeper.ts, given by start-up). */
export function purgeExpiredOidcRowsWhenDue(): Promise<void> {
  return dueEvery("oidcPurgeAt", OIDC_PURGE_EVERY_MS, now().getTime()) ? purgeExpiredOidcRows() : Promise.resolve();
}
