import { createHash } from "node:crypto";
import type { App } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { hashSecret } from "@/lib/crypto/secrets";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import type { AuthorizationCodeRequest } from "../schemas";
import { issueFirstTokens, type TokenResponse } from "./issue-tokens";
import { revokeGrant } from "./revoke";

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** The PKCE S256 code challenge of a verifier (RFC 7636 4.2). */
export function s256(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

/**
 * grant_type=authorization_code (RFC 6749 4.1.3, RFC 7636 4.6, spec 3.3):
 * the code is single use, about 2 minutes, bound to the client and the
 * redirect URI; with PKCE the verifier must match the S256 challenge, and a
 * verifier for a code issued without a challenge is refused (downgrade).
 * Presenting a used code again revokes everything it issued.
 */
export async function authorizationCodeGrant(app: App, request: AuthorizationCodeRequest): Promise<TokenResponse> {
  const { code, redirect_uri: redirectUri, code_verifier: verifier } = request;

  const prisma = await db();
  const codeHash = hashSecret(code);
  const row = await prisma.oidcAuthorizationCode.findUnique({ where: { codeHash }, include: { grant: true } });
  if (!row) throw new ApiError("invalid_grant", { message: "Unknown authorization code" });
  if (row.grant.appId !== app.id) throw new ApiError("invalid_grant", { message: "The code was issued to another client" });
  if (row.consumedAt) {
    await revokeGrant(row.grantId);
    throw new ApiError("invalid_grant", {
      message: "The code was already used; the tokens issued with it are revoked",
    });
  }
  if (row.expiresAt <= now()) throw new ApiError("invalid_grant", { message: "The authorization code has expired" });
  if (row.redirectUri !== redirectUri) {
    throw new ApiError("invalid_grant", { message: "redirect_uri does not match the one of the authorization request" });
  }
  if (row.codeChallenge) {
    if (!verifier) throw new ApiError("invalid_grant", { message: "code_verifier is required (PKCE was used)" });
    if (!VERIFIER.test(verifier) || s256(verifier) !== row.codeChallenge) {
      throw new ApiError("invalid_grant", { message: "code_verifier does not match the code_challenge" });
    }
  } else if (verifier) {
    throw new ApiError("invalid_grant", { message: "code_verifier given, but the authorization request had no code_challenge" });
  }
  if (row.grant.revokedAt) throw new ApiError("invalid_grant", { message: "The grant was revoked" });

  const consumed = await prisma.oidcAuthorizationCode.updateMany({
    where: { codeHash, consumedAt: null },
    data: { consumedAt: now() },
  });
  if (consumed.count === 0) {
    // Another request used it a moment ago.
    await revokeGrant(row.grantId);
    throw new ApiError("invalid_grant", { message: "The code was already used; the tokens issued with it are revoked" });
  }
  const g = row.grant;
  return issueFirstTokens(
    { grantId: g.id, accountId: g.accountId, scope: g.scope, nonce: g.nonce, authTime: g.authTime, expiresAt: g.expiresAt },
    app,
  );
}
