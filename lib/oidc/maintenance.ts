import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";

/**
 * Forgets what has expired: sign-in requests and codes, authorization codes,
 * access tokens, browsers' sign-in sessions, and grants (with their refresh
 * tokens, which cascade) a day after the login ended. Used refresh tokens
 * are kept until then so a replay is still recognised. The deletes are
 * idempotent. A periodic job (lib/server/scheduled-jobs.ts), every 10 minutes.
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
