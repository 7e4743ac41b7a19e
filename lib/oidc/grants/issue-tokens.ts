import { now } from "@/lib/clock";
import { hashSecret } from "@/lib/crypto/secrets";
import { sqlPool } from "@/lib/db/client";
import { hasScope, OIDC_TTL } from "../config";
import { signIdToken } from "../id-token";
import { newAccessToken, newRefreshToken, sqlTime } from "../tokens";

/** Spec 2.9: top-level token JSON. */
export type TokenResponse = {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  id_token?: string;
  scope: string;
};

export type IssuedGrant = {
  grantId: string;
  accountId: string;
  scope: string;
  nonce: string | null;
  authTime: Date;
  /** End of the login (refresh tokens expire then). */
  expiresAt: Date;
};

/** The active kid and the person's member id in the app's organization, as SQL sub-selects. */
export const KID_SQL = `(SELECT kid FROM oidc_signing_keys WHERE status = 'active' ORDER BY created_at DESC LIMIT 1)`;
export const memberIdSql = (accountExpr: string, orgParam: number) =>
  `(SELECT m.member_id FROM members m WHERE m.organization_id = $${orgParam} AND m.svc_id = ${accountExpr} AND m.status = 'active' ORDER BY m.id LIMIT 1)`;

/** Builds the response once the rows exist: signs the ID token when `openid` was granted. */
export async function tokenResponse(input: {
  grant: IssuedGrant;
  clientId: string;
  scope: string;
  accessToken: string;
  refreshToken: string;
  kid: string | null;
  memberId: string | null;
}): Promise<TokenResponse> {
  const body: TokenResponse = {
    access_token: input.accessToken,
    token_type: "Bearer",
    expires_in: OIDC_TTL.accessToken,
    refresh_token: input.refreshToken,
    scope: input.scope,
  };
  if (hasScope(input.scope, "openid")) {
    body.id_token = await signIdToken({
      kid: input.kid,
      accountId: input.grant.accountId,
      clientId: input.clientId,
      nonce: input.grant.nonce,
      authTime: input.grant.authTime,
      accessToken: input.accessToken,
      memberId: input.memberId,
    });
  }
  return body;
}

/** First tokens of a grant (authorization code exchange): one statement writes both tokens. */
export async function issueFirstTokens(grant: IssuedGrant, app: { clientId: string; organizationId: string }) {
  const accessToken = newAccessToken();
  const refreshToken = newRefreshToken();
  const at = now();
  const pool = await sqlPool();
  const { rows } = await pool.query<{ kid: string | null; member_id: string | null }>(
    `WITH new_at AS (
       INSERT INTO oidc_access_tokens (token_hash, grant_id, scope, expires_at, created_at)
       VALUES ($1, $3, $4, $5::timestamptz, $6::timestamptz)
     ), new_rt AS (
       INSERT INTO oidc_refresh_tokens (token_hash, grant_id, expires_at, created_at)
       VALUES ($2, $3, $7::timestamptz, $6::timestamptz)
     )
     SELECT ${KID_SQL} AS kid, ${memberIdSql("$8", 9)} AS member_id`,
    [
      hashSecret(accessToken),
      hashSecret(refreshToken),
      grant.grantId,
      grant.scope,
      sqlTime(new Date(at.getTime() + OIDC_TTL.accessToken * 1000)),
      sqlTime(at),
      sqlTime(grant.expiresAt),
      grant.accountId,
      app.organizationId,
    ],
  );
  const row = rows[0]!;
  return tokenResponse({
    grant,
    clientId: app.clientId,
    scope: grant.scope,
    accessToken,
    refreshToken,
    kid: row.kid,
    memberId: row.member_id,
  });
}
