import type { App } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { hashSecret } from "@/lib/crypto/secrets";
import { ApiError } from "@/lib/http/api-error";
import { OIDC_TTL, splitScope } from "../config";
import { sql } from "kysely";
import { prepareQuery, runPrepared, typedSql } from "@/lib/db/typed-sql";
import type { RefreshTokenRequest } from "../schemas";
import { newAccessToken, newRefreshToken } from "../tokens";
import { activeKid, memberIdOf, tokenResponse, type TokenResponse } from "./issue-tokens";
import { revokeAccountGrants } from "./revoke";

type RotateValues = {
  hash: string;
  appId: string;
  at: Date;
  requested: string | null;
  refreshTokenHash: string;
  accessTokenHash: string;
  accessExpiresAt: Date;
  organizationId: string;
};

const rotate = prepareQuery("oidc_refresh_rotate", (v: RotateValues) =>
    typedSql
      .with("rt", (db) =>
        db
          .updateTable("oidc_refresh_tokens as r")
          .from("oidc_grants as g")
          .set({ consumed_at: v.at })
          .where("r.token_hash", "=", v.hash)
          .where("r.consumed_at", "is", null)
          .where("r.expires_at", ">", v.at)
          .whereRef("g.id", "=", "r.grant_id")
          .where("g.app_id", "=", v.appId)
          .where("g.revoked_at", "is", null)
          .where(sql<boolean>`(${v.requested}::text IS NULL OR string_to_array(${v.requested}::text, ' ') <@ string_to_array(g.scope, ' '))`)
          .returning(["g.id as grant_id", "g.account_id", "g.scope", "g.nonce", "g.auth_time", "g.expires_at"]),
      )
      .with("new_rt", (db) =>
        db
          .insertInto("oidc_refresh_tokens")
          .columns(["token_hash", "grant_id", "expires_at", "created_at"])
          .expression((eb) =>
            eb.selectFrom("rt").select((eb) => [
              eb.val(v.refreshTokenHash).as("token_hash"),
              "rt.grant_id",
              "rt.expires_at",
              eb.cast<Date>(eb.val(v.at), "timestamptz").as("created_at"),
            ]),
          ),
      )
      .with("new_at", (db) =>
        db
          .insertInto("oidc_access_tokens")
          .columns(["token_hash", "grant_id", "scope", "expires_at", "created_at"])
          .expression((eb) =>
            eb.selectFrom("rt").select((eb) => [
              eb.val(v.accessTokenHash).as("token_hash"),
              "rt.grant_id",
              eb.fn.coalesce(eb.cast<string | null>(eb.val(v.requested), "text"), "rt.scope").as("scope"),
              eb.cast<Date>(eb.val(v.accessExpiresAt), "timestamptz").as("expires_at"),
              eb.cast<Date>(eb.val(v.at), "timestamptz").as("created_at"),
            ]),
          ),
      )
      .selectFrom("rt")
      .select([
        "rt.grant_id as grantId",
        "rt.account_id as accountId",
        "rt.scope",
        "rt.nonce",
        "rt.auth_time as authTime",
        "rt.expires_at as expiresAt",
        activeKid().as("kid"),
        memberIdOf(sql.ref<string>("rt.account_id"), v.organizationId).as("memberId"),
      ]),
);

/**
 * grant_type=refresh_token (RFC 6749 6, spec 3.3): the token rotates on
 * every use. The hot path is one statement: it marks the presented token
 * used (only if unused, unexpired, of this client and of a live grant),
 * writes the new refresh and access tokens, and reads the active signing
 * key and the person's member id. Refresh tokens end with the login (24
 * hours after the sign-in), not 24 hours after each rotation. A token
 * already rotated away is a replay: every grant of that person for this
 * client is revoked (all their refresh and access tokens). An optional
 * `scope` narrows the new access token to part of the grant. The parameters
 * were validated by RefreshTokenRequest (../schemas.ts).
 */
export async function refreshTokenGrant(app: App, request: RefreshTokenRequest): Promise<TokenResponse> {
  const presented = request.refresh_token;
  // Never empty: RefreshTokenRequest refuses a scope with no scope in it.
  const requested = request.scope === undefined ? null : splitScope(request.scope).sort().join(" ");

  const accessToken = newAccessToken();
  const refreshToken = newRefreshToken();
  const at = now();
  const hash = hashSecret(presented);
  const [row] = await runPrepared(rotate, {
    hash,
    appId: app.id,
    at,
    requested,
    refreshTokenHash: hashSecret(refreshToken),
    accessTokenHash: hashSecret(accessToken),
    accessExpiresAt: new Date(at.getTime() + OIDC_TTL.accessToken * 1000),
    organizationId: app.organizationId,
  });
  if (!row) return refuse(app, hash, requested);
  const { kid, memberId, ...grant } = row;
  return tokenResponse({
    grant,
    clientId: app.clientId,
    scope: requested ?? row.scope,
    accessToken,
    refreshToken,
    kid,
    memberId,
  });
}

/** The presented refresh token and its grant, whatever their state (refuse() says why it was not accepted). */
const presentedToken = prepareQuery("oidc_refresh_presented", (v: { hash: string }) =>
  typedSql
    .selectFrom("oidc_refresh_tokens as r")
    .innerJoin("oidc_grants as g", "g.id", "r.grant_id")
    .select(["r.consumed_at", "r.expires_at", "g.app_id", "g.account_id", "g.revoked_at", "g.scope"])
    .where("r.token_hash", "=", v.hash),
);

/** Why the token was not accepted; a replay revokes the person's grants for this client. */
async function refuse(app: App, hash: string, requested: string | null): Promise<never> {
  const [row] = await runPrepared(presentedToken, { hash });
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
