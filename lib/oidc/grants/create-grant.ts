import { now } from "@/lib/clock";
import { hashSecret } from "@/lib/crypto/secrets";
import { db } from "@/lib/db/client";
import { OIDC_TTL } from "../config";
import { newAuthorizationCode } from "../tokens";

/**
 * What consent produces: a grant (the login of this person at this client,
 * ending 24 hours after `authTime`) and its single-use authorization code
 * (about 2 minutes, bound to the redirect URI and the PKCE challenge).
 * Returns the code in clear, once; only its hash is stored.
 */
export async function createGrantWithCode(input: {
  appId: string;
  accountId: string;
  scope: string;
  nonce: string | null;
  authTime: Date;
  redirectUri: string;
  codeChallenge: string | null;
}): Promise<{ grantId: string; code: string }> {
  const prisma = await db();
  const code = newAuthorizationCode();
  const at = now();
  const grant = await prisma.oidcGrant.create({
    data: {
      appId: input.appId,
      accountId: input.accountId,
      scope: input.scope,
      nonce: input.nonce,
      authTime: input.authTime,
      expiresAt: new Date(input.authTime.getTime() + OIDC_TTL.login * 1000),
      createdAt: at,
      codes: {
        create: {
          codeHash: hashSecret(code),
          redirectUri: input.redirectUri,
          codeChallenge: input.codeChallenge,
          expiresAt: new Date(at.getTime() + OIDC_TTL.authorizationCode * 1000),
          createdAt: at,
        },
      },
    },
  });
  return { grantId: grant.id, code };
}
