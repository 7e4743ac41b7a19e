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
  at: Date;
  requested: string | null;
  refreshTokenHash: string;
  accessTokenHash: string;
  accessExpiresAt: Date;
  organizationId: string;
};

/**
 * The rotation of a token refusal() accepted, in one statement: it marks the
 * presented token used, writes the new refresh and access tokens, and reads
 * the active signing key and the person's member id. Its one condition,
 * `consumed_at IS NULL`, is no refusal rule but the claim that makes a use
 * happen once: of two requests with the same token, both accepted, exactly
 * one marks it used; the other gets no row and is judged again (a replay).
 */
const rotate = prepareQuery("oidc_refresh_rotate", (v: RotateValues) =>
  typedSql
    .with("rt", (db) =>
      db
        .updateTable("oidc_refresh_tokens as r")
        .from("oidc_grants as g")
        .set({ consumed_at: v.at })
        .where("r.token_hash", "=", v.hash)
        .where("r.consumed_at", "is", null)
        .whereRef("g.id", "=", "r.grant_id")
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

/** The presented refresh token and its grant, whatever their state (refusal() judges them). */
const presentedToken = prepareQuery("oidc_refresh_presented", (v: { hash: string }) =>
  typedSql
    .selectFrom("oidc_refresh_tokens as r")
    .innerJoin("oidc_grants as g", "g.id", "r.grant_id")
    .select(["r.consumed_at", "r.expires_at", "g.app_id", "g.account_id", "g.revoked_at", "g.scope"])
    .where("r.token_hash", "=", v.hash),
);

type PresentedToken = NonNullable<(typeof presentedToken)["types"]>["rows"][number];

/**
 * grant_type=refresh_token (RFC 6749 6, spec 3.3): the token rotates on
 * every use. The presented token is read and judged (refusal(): the one
 * statement of when a refresh token is good), then rotated (`rotate`). Only
 * the token's use can change between the two (its client, expiry and scope
 * never do; a grant revoked in between leaves the new tokens dead at once,
 * as if the revocation came just after the rotation): `rotate` claims the
 * use, and a request that loses the claim is judged again, now a replay.
 * Refresh tokens end with the login (24 hours after the sign-in), not 24
 * hours after each rotation. A token already rotated away is a replay:
 * every grant of that person for this client is revoked (all their refresh
 * and access tokens). An optional `scope` narrows the new access token to
 * part of the grant. The parameters were validated by RefreshTokenRequest
 * (../schemas.ts).
 */
export async function refreshTokenGrant(app: App, request: RefreshTokenRequest): Promise<TokenResponse> {
  const presented = request.refresh_token;
  // Never empty: RefreshTokenRequest refuses a scope with no scope in it.
  const requested = request.scope === undefined ? null : splitScope(request.scope).sort().join(" ");

  const at = now();
  const hash = hashSecret(presented);
  await refuseUnlessGood(app, hash, requested, at);

  const accessToken = newAccessToken();
  const refreshToken = newRefreshToken();
  const [row] = await runPrepared(rotate, {
    hash,
    at,
    requested,
    refreshTokenHash: hashSecret(refreshToken),
    accessTokenHash: hashSecret(accessToken),
    accessExpiresAt: new Date(at.getTime() + OIDC_TTL.accessToken * 1000),
    organizationId: app.organizationId,
  });
  if (!row) {
    // Another request used the token since it was judged: judged again, this one is a replay.
    await refuseUnlessGood(app, hash, requested, at);
    throw new ApiError("invalid_grant", { message: "The refresh token is no longer valid" });
  }
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

/** Reads the presented token and throws refusal()'s answer, if any; a replay first revokes the person's grants for this client. */
async function refuseUnlessGood(app: App, hash: string, requested: string | null, at: Date): Promise<void> {
  const [token] = await runPrepared(presentedToken, { hash });
  const refused = refusal(token, app, requested, at);
  if (!refused) return;
  if (refused.replayBy) await revokeAccountGrants(refused.replayBy, app.id);
  throw refused.error;
}

/**
 * Why a presented refresh token is not accepted by `app` at `at`, or null
 * when it is good: known, of this client, unused, of a live grant,
 * unexpired, and asking at most the grant's scope. A used one is a replay
 * (`replayBy`: whose grants for this client are revoked).
 */
function refusal(
  token: PresentedToken | undefined,
  app: Pick<App, "id">,
  requested: string | null,
  at: Date,
): { error: ApiError; replayBy?: string } | null {
  if (!token) return { error: new ApiError("invalid_grant", { message: "Unknown refresh token" }) };
  if (token.app_id !== app.id) return { error: new ApiError("invalid_grant", { message: "The refresh token was issued to another client" }) };
  if (token.consumed_at) {
    return {
      replayBy: token.account_id,
      error: new ApiError("invalid_grant", {
        message: "The refresh token was already used (replay): every refresh token of this user for this client is revoked",
      }),
    };
  }
  if (token.revoked_at) return { error: new ApiError("invalid_grant", { message: "The refresh token was revoked" }) };
  if (token.expires_at <= at) return { error: new ApiError("invalid_grant", { message: "The refresh token has expired: sign in again" }) };
  if (requested !== null) {
    const granted = splitScope(token.scope);
    const missing = splitScope(requested).filter((s) => !granted.includes(s));
    if (missing.length) return { error: new ApiError("invalid_scope", { message: `scope beyond the grant: ${missing.join(" ")}` }) };
  }
  return null;
}
