import { digest, generateSalt } from "@sd-jwt/crypto-nodejs";
import { SDJwtVcInstance, type SdJwtVcPayload } from "@sd-jwt/sd-jwt-vc";
import type { DisclosureFrame } from "@sd-jwt/types";
import { EmbeddedJWK, errors as joseErrors, jwtVerify, type JWK } from "jose";
import { now } from "@/lib/clock";
import { ApiError } from "@/lib/http/api-error";
import { identityPredicates } from "@/lib/identity/predicates";
import { readProfile } from "@/lib/identity/profile";
import { requireAccessToken } from "./access-token";
import { issuer } from "./config";
import { readParams, type OidcRequest } from "./http";
import { signingKey } from "./keys";
import { CredentialRequest, parseParams } from "./schemas";
import {
  CREDENTIAL_TTL_SECONDS,
  HOLDER_PROOF_MAX_AGE_SECONDS,
  KEY_PROOF_TYP,
  PREDICATE_CLAIMS,
  PREDICATE_VCT,
} from "./predicate-credential-format";

/**
 * POST /api/auth/oidc/credential (docs/oidc.md "Proofs, not data"): the `zkp`
 * predicates of the token's account as an SD-JWT VC (RFC 9901, SD-JWT VC
 * profile), signed RS256 with the provider's active key (verifiable with the
 * JWKS). Every predicate is selectively disclosable, padded with decoy
 * digests to a constant count so the credential does not tell how many
 * predicates the person has. No `sub`, and `iat` to the hour: nothing in it
 * names the person. Presentations of ONE credential are linkable (the same
 * signature); a fresh credential per verifier (every call issues a new one,
 * new salts, ideally with a new holder key) is not.
 *
 * Key binding: with `proof` (a JWT of `typ` openid4vci-proof+jwt signed by the
 * holder's key, that key in its `jwk` header, `aud` this issuer, `iat` within
 * five minutes) the holder's public key goes in `cnf.jwk`, and a verifier
 * then requires a key-binding JWT from that key with its own nonce.
 */
export async function issuePredicateCredential(req: OidcRequest) {
  const token = await requireAccessToken(req, ["zkp"]);
  const { proof } = parseParams(CredentialRequest, await readParams(req, "body"));
  const holderKey = proof ? await holderKeyOf(proof) : null;

  const at = now();
  const predicates = identityPredicates(await readProfile(token.accountId, at), at);
  const disclosed = PREDICATE_CLAIMS.filter((name) => predicates[name] !== undefined);
  // Issued-at to the hour: a second-precise time would help link presentations to this issuance.
  const iat = Math.floor(at.getTime() / 3_600_000) * 3600;
  const payload: SdJwtVcPayload = {
    iss: issuer(),
    iat,
    exp: iat + CREDENTIAL_TTL_SECONDS,
    vct: PREDICATE_VCT,
    ...(holderKey ? { cnf: { jwk: holderKey } } : {}),
    ...predicates,
  };
  const { kid, key } = await signingKey(null);
  const sdJwt = new SDJwtVcInstance({
    signer: async (data) => Buffer.from(await crypto.subtle.sign("RSASSA-PKCS1-v1_5", key, new TextEncoder().encode(data))).toString("base64url"),
    signAlg: "RS256",
    hasher: digest,
    hashAlg: "sha-256",
    saltGenerator: generateSalt,
  });
  const frame = { _sd: disclosed, _sd_decoy: PREDICATE_CLAIMS.length - disclosed.length } as DisclosureFrame<SdJwtVcPayload>;
  const credential = await sdJwt.issue(payload, frame, { header: { kid } });
  return {
    format: "dc+sd-jwt" as const,
    vct: PREDICATE_VCT,
    credential,
    claims: disclosed,
    holder_bound: holderKey !== null,
    expires_at: new Date((iat + CREDENTIAL_TTL_SECONDS) * 1000).toISOString(),
  };
}

/** The holder's public key from its key proof (a possession proof: signed by that very key). */
async function holderKeyOf(proof: string): Promise<JWK> {
  try {
    const { protectedHeader } = await jwtVerify(proof, EmbeddedJWK, {
      typ: KEY_PROOF_TYP,
      audience: issuer(),
      maxTokenAge: HOLDER_PROOF_MAX_AGE_SECONDS,
      currentDate: now(),
      requiredClaims: ["iat"],
    });
    const { kty, crv, x, y, n, e } = protectedHeader.jwk as JWK;
    return Object.fromEntries(Object.entries({ kty, crv, x, y, n, e }).filter(([, v]) => v !== undefined)) as JWK;
  } catch (err) {
    const reason = err instanceof joseErrors.JOSEError ? err.message : "it is not a signed JWT";
    throw new ApiError("invalid_request", {
      message: `proof must be a JWT of typ ${KEY_PROOF_TYP}, signed by the key in its jwk header, aud ${issuer()}, iat within ${HOLDER_PROOF_MAX_AGE_SECONDS} seconds: ${reason}`,
      data: { errors: { proof: [reason] } },
    });
  }
}
