import type { App } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { hashSecret } from "@/lib/crypto/secrets";
import { sqlPool } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import { OIDC_TTL, splitScope } from "../config";
import { hotQuery, newAccessToken, newRefreshToken, sqlTime } from "../tokens";
import { KID_SQL, memberIdSql, tokenResponse, type TokenResponse } from "./issue-tokens";
import { revokeAccountGrants } from "./revoke";

type Rotated = {
  grant_id: string;
  account_id: string;
  scope: string;
  nonce: string | null;
  auth_time: Date;
  expires_at: Date;
  kid: string | null;
  member_id: string | null;
};

/**
 * grant_type=refresh_token (RFC 6749 6, spec 3.3): the token rotates on
 * every use. The hot path is one statement: it marks the presented token
 * used (only if unused, unexpired, of this client and of a live grant),
 * writes the new refresh and access tokens, and reads the active signing
 * key and the person's member id. Refresh tokens end with the login (24
 * hours after the sign-in), not 24 hours after each rotation. A token
 * already rotated away is a replay: every grant of that person for this
 * client is revoked (all their refresh and access tokens). An optional
 * `scope` narrows the new access token to part of the grant.
 */
export async function refreshTokenGrant(app: App, params: Map<string, string>): Promise<TokenResponse> {
  const presented = params.get("refresh_token");
  if (!presented) throw new ApiError("invalid_request", { message: "refresh_token is required" });
  const requested = params.has("scope") ? splitScope(params.get("scope")).sort().join(" ") : null;
  if (requested !== null && requested === "") throw new ApiError("invalid_scope", { message: "scope is empty" });

  const accessToken = newAccessToken();
  const refreshToken = newRefreshToken();
  const at = now();
  const hash = hashSecret(presented);
  const { rows } = await hotQuery<Rotated>(
    "oidc_refresh_rotate",
    `WITH rt AS (
       UPDATE oidc_refresh_tokens r SET consumed_at = $3::timestamptz
         FROM oidc_grants g
        WHERE r.token_hash = $1 AND r.consumed_at IS NULL AND r.expires_at > $3::timestamptz
          AND g.id = r.grant_id AND g.app_id = $2 AND g.revoked_at IS NULL
          AND ($6::text IS NULL OR string_to_array($6::text, ' ') <@ string_to_array(g.scope, ' '))
       RETURNING g.id AS grant_id, g.account_id, g.scope, g.nonce, g.auth_time, g.expires_at
     ), new_rt AS (
       INSERT INTO oidc_refresh_tokens (token_hash, grant_id, expires_at, created_at)
       SELECT $4, grant_id, expires_at, $3::timestamptz FROM rt
     ), new_at AS (
       INSERT INTO oidc_access_tokens (token_hash, grant_id, scope, expires_at, created_at)
       SELECT $5, grant_id, COALESCE($6::text, scope), $7::timestamptz, $3::timestamptz FROM rt
     )
     SELECT rt.*, ${KID_SQL} AS kid, ${memberIdSql("rt.account_id", 8)} AS member_id FROM rt`,
    [
      hash,
      app.id,
      sqlTime(at),
      hashSecret(refreshToken),
      hashSecret(accessToken),
      requested,
      sqlTime(new Date(at.getTime() + OIDC_TTL.accessToken * 1000)),
      app.organizationId,
    ],
  );
  const row = rows[0];
  if (!row) return refuse(app, hash, requested);
  return tokenResponse({
    grant: {
      grantId: row.grant_id,
      accountId: row.account_id,
      scope: row.scope,
      nonce: row.nonce,
      authTime: row.auth_time,
      expiresAt: row.expires_at,
    },
    clientId: app.clientId,
    scope: requested ?? row.scope,
    accessToken,
    refreshToken,
    kid: row.kid,
    memberId: row.member_id,
  });
}

/** Why the token was not accepted; a replay revokes the person's grants for this client. */
async function refuse(app: App, hash: string, requested: string | null): Promise<never> {
  const pool = await sqlPool();
  const { rows } = await pool.query<{
    consumed_at: Date | null;
    expires_at: Date;
    app_id: string;
    account_id: string;
    revoked_at: Date | null;
    scope: string;
  }>(
    `SELECT r.consumed_at, r.expires_at, g.app_id, g.account_id, g.revoked_at, g.scope
       FROM oidc_refresh_tokens r JOIN oidc_grants g ON g.id = r.grant_id
      WHERE r.token_hash = $1`,
    [hash],
  );
  const row = rows[0];
  if (!row) throw new ApiError("invalid_grant", { message: "Unknown refresh token" });
  if (row.app_id !== app.id) throw new ApiError("invalid_grant", { message: "The refresh token was issued to another client" });
  if (row.consumed_at) {
    await revokeAccountGrants(row.account_id, app.id);
    throw new ApiError("invalid_grant", {
      message: "The refresh token was already used (replay): every refresh token of this user for this client is revoked",
    });
  }
  if (row.revoked_at) throw new ApiError("invalid_grant", { message: "The refresh token was revoked" });
  if (row.expires_at <= now()) throw new ApiError("invalid_grant", { message: "The refresh token has expired: sign in again" });
  if (requested !== null) {
    const granted = splitScope(row.scope);
    const missing = splitScope(requested).filter((s) => !granted.includes(s));
    if (missing.length) throw new ApiError("invalid_scope", { message: `scope beyond the grant: ${missing.join(" ")}` });
  }
  throw new ApiError("invalid_grant", { message: "The refresh token is no longer valid" });
}
