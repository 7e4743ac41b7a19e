import { now } from "@/lib/clock";
import { hashSecret } from "@/lib/crypto/secrets";
import { ApiError } from "@/lib/http/api-error";
import { splitScope } from "./config";
import { bearerToken, type OidcRequest } from "./http";
import { hotQuery, sqlTime } from "./tokens";

export type AccessTokenInfo = {
  accountId: string;
  appId: string;
  scopes: string[];
  email: string;
  name: string | null;
  preferredUsername: string | null;
  emailVerified: boolean;
  /** Only when asked for (`withIdVerified`). */
  idVerified: boolean | null;
};

type Row = {
  account_id: string;
  app_id: string;
  scope: string;
  email: string;
  name: string | null;
  preferred_username: string | null;
  email_verified: boolean;
  id_verified: boolean | null;
};

/** Passed ID verification in an approved session bound to the account (lib/accounts/account-proofs.ts). */
export const ID_VERIFIED_SQL = (account: string) => `EXISTS (
  SELECT 1 FROM sessions s JOIN check_results c ON c.session_id = s.id
   WHERE s.account_id = ${account} AND s.status = 'APPROVED' AND c.type = 'id_verification' AND c.status = 'passed')`;

/**
 * An opaque access token to its account, client and scopes, in one query:
 * unknown, expired, or of a revoked grant or an inactive app is null.
 */
export async function lookupAccessToken(token: string, options: { withIdVerified?: boolean } = {}): Promise<AccessTokenInfo | null> {
  const { rows } = await hotQuery<Row>(
    options.withIdVerified ? "oidc_access_token_id_verified" : "oidc_access_token",
    `SELECT g.account_id, g.app_id, t.scope, a.email, a.name, a.preferred_username,
            (a.email_verified_at IS NOT NULL) AS email_verified,
            ${options.withIdVerified ? ID_VERIFIED_SQL("a.id") : "NULL::boolean"} AS id_verified
       FROM oidc_access_tokens t
       JOIN oidc_grants g ON g.id = t.grant_id
       JOIN apps p ON p.id = g.app_id
       JOIN accounts a ON a.id = g.account_id
      WHERE t.token_hash = $1 AND t.expires_at > $2::timestamptz AND g.revoked_at IS NULL AND p.is_active`,
    [hashSecret(token), sqlTime(now())],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    accountId: r.account_id,
    appId: r.app_id,
    scopes: splitScope(r.scope),
    email: r.email,
    name: r.name,
    preferredUsername: r.preferred_username,
    emailVerified: r.email_verified,
    idVerified: r.id_verified,
  };
}

const REALM = 'Bearer realm="svc"';

/**
 * Spec 5: `Authorization: Bearer <access token>`. Missing, unknown, expired
 * or revoked: 401 `invalid_token`. Without `openid` (spec 5 rule 4) or a
 * required scope: 403 `insufficient_scope`. RFC 6750 WWW-Authenticate
 * challenges carry the same codes for standard clients.
 */
export async function requireAccessToken(
  req: Pick<OidcRequest, "headers">,
  required: string[],
  options: { withIdVerified?: boolean } = {},
): Promise<AccessTokenInfo> {
  const token = bearerToken(req);
  if (!token) {
    throw new ApiError("invalid_token", {
      message: "Send the access token: Authorization: Bearer <access_token>",
      headers: { "WWW-Authenticate": REALM },
    });
  }
  const info = await lookupAccessToken(token, options);
  if (!info) {
    throw new ApiError("invalid_token", {
      message: "The access token is unknown, expired or revoked",
      headers: { "WWW-Authenticate": `${REALM}, error="invalid_token", error_description="The access token is unknown, expired or revoked"` },
    });
  }
  const needed = ["openid", ...required];
  const missing = needed.filter((s) => !info.scopes.includes(s));
  if (missing.length) {
    throw new ApiError("insufficient_scope", {
      message: `The access token lacks the scope: ${missing.join(" ")}`,
      headers: { "WWW-Authenticate": `${REALM}, error="insufficient_scope", scope="${needed.join(" ")}"` },
    });
  }
  return info;
}
