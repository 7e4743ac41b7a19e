import { now } from "@/lib/clock";
import { hashSecret } from "@/lib/crypto/secrets";
import { ApiError } from "@/lib/http/api-error";
import { splitScope } from "./config";
import { bearerToken, type OidcRequest } from "./http";
import { sql, type ExpressionBuilder } from "kysely";
import type { DB } from "@/generated/kysely/database";
import { prepareQuery, runPrepared, typedSql } from "@/lib/db/typed-sql";
import { staleBefore } from "@/lib/identity/profile";
import { documentProofName, openProofContent } from "@/lib/identity/proofs";

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
  /** The name as verified on the account's valid document proof (`withIdVerified`), else null. */
  verifiedName: string | null;
};

/**
 * The account's valid document proof, sealed (lib/identity/profile.ts
 * proofState "valid": not past the document's expiry, verified since
 * `staleBefore`), or null: the account is ID-verified when there is one.
 */
function validDocumentProof(eb: ExpressionBuilder<DB & { a: DB["accounts"] }, "a">, v: { at: Date; staleBefore: Date }) {
  return eb
    .selectFrom("account_proofs as ap")
    .select("ap.sealed")
    .whereRef("ap.account_id", "=", "a.id")
    .where("ap.kind", "=", sql.lit("document"))
    .where((w) => w.or([w("ap.valid_until", "is", null), w("ap.valid_until", ">", v.at)]))
    .where("ap.verified_at", ">=", v.staleBefore)
    .orderBy("ap.verified_at", "desc")
    .limit(1)
    .$castTo<Uint8Array | null>();
}

function accessTokenQuery(name: string, withIdVerified: boolean) {
  return prepareQuery(name, (v: { tokenHash: string; at: Date; staleBefore: Date }) =>
    typedSql
      .selectFrom("oidc_access_tokens as t")
      .innerJoin("oidc_grants as g", "g.id", "t.grant_id")
      .innerJoin("apps as p", "p.id", "g.app_id")
      .innerJoin("accounts as a", "a.id", "g.account_id")
      .select((eb) => [
        "g.account_id as accountId",
        "g.app_id as appId",
        "t.scope",
        "a.email",
        "a.name",
        "a.preferred_username as preferredUsername",
        eb("a.email_verified_at", "is not", null).$castTo<boolean>().as("emailVerified"),
        withIdVerified ? validDocumentProof(eb, v).as("document") : sql<Uint8Array | null>`NULL::bytea`.as("document"),
      ])
      .where("t.token_hash", "=", v.tokenHash)
      .where("t.expires_at", ">", v.at)
      .where("g.revoked_at", "is", null)
      .where((eb) => eb.ref("p.is_active")),
  );
}

const accessToken = accessTokenQuery("oidc_access_token", false);
const accessTokenWithIdVerified = accessTokenQuery("oidc_access_token_id_verified", true);

/**
 * An opaque access token to its account, client and scopes, in one query:
 * unknown, expired, or of a revoked grant or an inactive app is null.
 */
export async function lookupAccessToken(token: string, options: { withIdVerified?: boolean } = {}): Promise<AccessTokenInfo | null> {
  const at = now();
  const [row] = await runPrepared(options.withIdVerified ? accessTokenWithIdVerified : accessToken, {
    tokenHash: hashSecret(token),
    at,
    staleBefore: staleBefore(at),
  });
  if (!row) return null;
  const { scope, document, ...info } = row;
  return {
    ...info,
    scopes: splitScope(scope),
    idVerified: options.withIdVerified ? document !== null : null,
    verifiedName: document ? documentProofName(openProofContent<"document">(document)) : null,
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
