import { createHash } from "node:crypto";
import { compactVerify, importJWK, SignJWT } from "jose";
import { now } from "@/lib/clock";
import { issuer, OIDC_TTL } from "./config";
import { publicKeyByKid, signingKey } from "./keys";

/** `at_hash` (OIDC Core 3.1.3.6): left half of SHA-256 of the access token, base64url. */
export function atHash(accessToken: string): string {
  return createHash("sha256").update(accessToken, "ascii").digest().subarray(0, 16).toString("base64url");
}

export type IdTokenInput = {
  /** Active kid as the issuing query saw it (null: look it up). */
  kid: string | null;
  accountId: string;
  clientId: string;
  nonce: string | null;
  authTime: Date;
  accessToken: string;
  /** The person's member id in the app's organization (`svc_org_member_id`), when they are a member. */
  memberId: string | null;
};

/**
 * The ID token: RS256 with `kid`; `iss`, `sub` (the svc_id), `aud`, `exp`,
 * `iat`, `auth_time`, `nonce` (when the authorization request sent one; kept
 * on refresh, as node-oidc-provider does), `at_hash`, and
 * `svc_org_member_id` for members of the app's organization. No personal
 * attributes: the consent screen releases none (spec 5 rule 6).
 */
export async function signIdToken(input: IdTokenInput): Promise<string> {
  const { kid, key } = await signingKey(input.kid);
  const iat = Math.floor(now().getTime() / 1000);
  const claims: Record<string, unknown> = {
    auth_time: Math.floor(input.authTime.getTime() / 1000),
    at_hash: atHash(input.accessToken),
  };
  if (input.nonce) claims.nonce = input.nonce;
  if (input.memberId) claims.svc_org_member_id = input.memberId;
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "RS256", kid, typ: "JWT" })
    .setIssuer(issuer())
    .setSubject(input.accountId)
    .setAudience(input.clientId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + OIDC_TTL.idToken)
    .sign(key);
}

export type IdTokenHint = { sub: string; aud: string[]; exp: number | undefined };

/**
 * An `id_token_hint` (logout): the signature must be ours (any key we ever
 * used) and the issuer this one; an expired token is accepted (spec 4.5).
 * Null when it is not a token of ours.
 */
export async function verifyIdTokenHint(token: string): Promise<IdTokenHint | null> {
  try {
    const { payload } = await compactVerify(
      token,
      async (header) => {
        const jwk = header.kid ? await publicKeyByKid(header.kid) : null;
        if (!jwk) throw new Error("unknown kid");
        return importJWK(jwk, "RS256");
      },
      { algorithms: ["RS256"] },
    );
    const claims = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
    if (claims.iss !== issuer() || typeof claims.sub !== "string") return null;
    const aud = typeof claims.aud === "string" ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud.filter((a) => typeof a === "string") : [];
    if (aud.length === 0) return null;
    return { sub: claims.sub, aud, exp: typeof claims.exp === "number" ? claims.exp : undefined };
  } catch {
    return null;
  }
}
