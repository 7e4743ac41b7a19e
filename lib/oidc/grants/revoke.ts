import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";

/**
 * Revocation works on grants: every code, access token and refresh token
 * hangs off one, and every lookup requires its grant unrevoked, so it takes
 * effect at once on every instance.
 */

/** One grant: what an authorization code issued (code reuse). */
export async function revokeGrant(grantId: string): Promise<void> {
  await (await db()).oidcGrant.updateMany({ where: { id: grantId, revokedAt: null }, data: { revokedAt: now() } });
}

/** Every grant of a person for one client (refresh token replay, logout). Returns how many. */
export async function revokeAccountGrants(accountId: string, appId: string): Promise<number> {
  const { count } = await (await db()).oidcGrant.updateMany({ where: { accountId, appId, revokedAt: null }, data: { revokedAt: now() } });
  return count;
}

/** Every grant of a person for the given clients (e.g. a deactivated organization member's app logins). */
export async function revokeAccountGrantsForApps(accountId: string, appIds: string[]): Promise<number> {
  if (appIds.length === 0) return 0;
  const { count } = await (await db()).oidcGrant.updateMany({ where: { accountId, appId: { in: appIds }, revokedAt: null }, data: { revokedAt: now() } });
  return count;
}
