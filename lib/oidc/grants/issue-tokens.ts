import { now } from "@/lib/clock";
import { hashSecret } from "@/lib/crypto/secrets";
import { sql, type Expression } from "kysely";
import { prepareQuery, runPrepared, typedSql } from "@/lib/db/typed-sql";
import { hasScope, OIDC_TTL } from "../config";
import { signIdToken } from "../id-token";
import { newAccessToken, newRefreshToken } from "../tokens";

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

/** The active signing key's kid, as a sub-select. */
export const activeKid = () =>
  typedSql.selectFrom("oidc_signing_keys").select("kid").where("status", "=", sql.lit("active")).orderBy("created_at", "desc").limit(sql.lit(1));

/** The person's member id in the app's organization (an active member bound to the account), as a sub-select. */
export const memberIdOf = (account: Expression<string> | string, organizationId: string) =>
  typedSql
    .selectFrom("members as m")
    .select("m.member_id")
    .where("m.organization_id", "=", organizationId)
    .where("m.svc_id", "=", account)
    .where("m.status", "=", sql.lit("active"))
    .orderBy("m.id")
    .limit(sql.lit(1));

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

const firstTokens = prepareQuery(
  "oidc_first_tokens",
  (v: {
    accessTokenHash: string;
    refreshTokenHash: string;
    grantId: string;
    scope: string;
    accessExpiresAt: Date;
    refreshExpiresAt: Date;
    at: Date;
    accountId: string;
    organizationId: string;
  }) =>
    typedSql
      .with("new_at", (db) =>
        db.insertInto("oidc_access_tokens").values({
          token_hash: v.accessTokenHash,
          grant_id: v.grantId,
          scope: v.scope,
          expires_at: v.accessExpiresAt,
          created_at: v.at,
        }),
      )
      .with("new_rt", (db) =>
        db.insertInto("oidc_refresh_tokens").values({
          token_hash: v.refreshTokenHash,
          grant_id: v.grantId,
          expires_at: v.refreshExpiresAt,
          created_at: v.at,
        }),
      )
      .selectNoFrom([activeKid().as("kid"), memberIdOf(v.accountId, v.organizationId).as("memberId")]),
);

/** First tokens of a grant (authorization code exchange): one statement writes both tokens. */
export async function issueFirstTokens(grant: IssuedGrant, app: { clientId: string; organizationId: string }) {
  const accessToken = newAccessToken();
  const refreshToken = newRefreshToken();
  const at = now();
  const [row] = await runPrepared(firstTokens, {
    accessTokenHash: hashSecret(accessToken),
    refreshTokenHash: hashSecret(refreshToken),
    grantId: grant.grantId,
    scope: grant.scope,
    accessExpiresAt: new Date(at.getTime() + OIDC_TTL.accessToken * 1000),
    refreshExpiresAt: grant.expiresAt,
    at,
    accountId: grant.accountId,
    organizationId: app.organizationId,
  });
  return tokenResponse({
    grant,
    clientId: app.clientId,
    scope: grant.scope,
    accessToken,
    refreshToken,
    kid: row?.kid ?? null,
    memberId: row?.memberId ?? null,
  });
}
