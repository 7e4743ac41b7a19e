import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { splitScope } from "../config";

/**
 * Whether the person already allowed this app these scopes in the current
 * login: a grant of theirs for the app, neither revoked (logout, a token
 * replay, an organization's deactivation) nor ended, whose scope covers
 * every scope asked. Consent is asked once per login and app, and again
 * for a wider scope or after the app's access was ended.
 */
export async function consentCovers(accountId: string, appId: string, scope: string): Promise<boolean> {
  const prisma = await db();
  const grants = await prisma.oidcGrant.findMany({
    where: { accountId, appId, revokedAt: null, expiresAt: { gt: now() } },
    select: { scope: true },
  });
  const asked = splitScope(scope);
  return grants.some((grant) => {
    const given = new Set(splitScope(grant.scope));
    return asked.every((s) => given.has(s));
  });
}
