import type { App } from "@/generated/prisma/client";
import { hashSecret, randomToken } from "@/lib/crypto/secrets";
import { db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { issuer } from "@/lib/oidc/config";
import { ACCOUNT_PAGE_CLIENT_ID, SYSTEM_ORGANIZATION_ID } from "@/lib/oidc/first-party";

/**
 * The account page (/account) signs people in through this service's own
 * OpenID Connect provider, as a first-party client: the same sign-in page,
 * email code or face, with every limit and protection it has. The client
 * is a system app ("Your account") of a system organization, made on first
 * use; no developer belongs to that organization, so no portal shows it. Its
 * code is redeemed in process (lib/account-page/account-sign-in.ts), so its
 * client secret is random and never kept in clear: nobody can use it from
 * outside. Its one redirect URI follows PUBLIC_BASE_URL. It signs in
 * without a consent screen (lib/oidc/first-party.ts skipsConsent).
 */
export const accountCallbackUri = () => `${issuer()}/account/callback`;

export async function accountPageApp(): Promise<App> {
  try {
    return await ensureAccountPageApp();
  } catch (err) {
    // Two first requests at once: the other one made it; this one now finds or updates it.
    if (isUniqueViolation(err)) return ensureAccountPageApp();
    throw err;
  }
}

async function ensureAccountPageApp(): Promise<App> {
  const prisma = await db();
  const redirectUri = accountCallbackUri();
  const existing = await prisma.app.findUnique({ where: { clientId: ACCOUNT_PAGE_CLIENT_ID } });
  if (existing && existing.redirectUris.length === 1 && existing.redirectUris[0] === redirectUri) return existing;
  await prisma.organization.upsert({
    where: { id: SYSTEM_ORGANIZATION_ID },
    create: { id: SYSTEM_ORGANIZATION_ID, name: "Identity Verification (system)" },
    update: {},
  });
  return prisma.app.upsert({
    where: { clientId: ACCOUNT_PAGE_CLIENT_ID },
    create: {
      organizationId: SYSTEM_ORGANIZATION_ID,
      name: "Your account",
      environment: "production",
      clientId: ACCOUNT_PAGE_CLIENT_ID,
      clientSecretHash: hashSecret(randomToken("cs_live_", 32)),
      redirectUris: [redirectUri],
      scopes: ["openid"],
    },
    update: { redirectUris: [redirectUri], isActive: true },
  });
}
