import { createHash } from "node:crypto";
import { digest } from "@sd-jwt/crypto-nodejs";
import { SDJwtVcInstance } from "@sd-jwt/sd-jwt-vc";
import { compactVerify, createLocalJWKSet, createRemoteJWKSet, decodeJwt, decodeProtectedHeader, importJWK, type JSONWebKeySet, type JWK } from "jose";
import { HOLDER_PROOF_MAX_AGE_SECONDS, PREDICATE_CLAIMS, PREDICATE_VCT, SD_JWT_VC_TYP, type PredicateClaim } from "./predicate-credential-format";

/**
 * The verifier helper for relying parties (docs/oidc.md "Proofs, not data"): checks
 * a presentation of the predicate credential and returns only what the
 * holder disclosed. It imports nothing of the server (jose and @sd-jwt only),
 * so an app can use it as it is.
 *
 * Checked: the issuer's RS256 signature against its JWKS (by `kid`), `iss`,
 * `typ`, `vct`, `exp`/`iat`, every disclosure's digest; for a holder-bound
 * credential (`cnf.jwk`) a key-binding JWT signed by that key, for this
 * audience and nonce, at most five minutes old, over exactly these
 * disclosures (`sd_hash`); every disclosure referenced by the credential
 * (RFC 9901 7.1). A holder-bound credential presented without its key
 * binding is refused: whoever copied it cannot use it; with a nonce given,
 * a credential without a holder key is refused too (`requireHolderBinding`).
 */
export type PresentationOptions = {
  /** The provider's issuer (its discovery document's `issuer`). */
  issuer: string;
  /** The provider's JWKS: the document, or its URL (fetched and cached by jose). */
  jwks: JSONWebKeySet | URL;
  /** For holder-bound credentials: the nonce and the audience (your identifier) you asked the holder to sign. */
  nonce?: string;
  audience?: string;
  /** Refuse a credential without a holder key (default: true when a nonce is given, so a copied unbound credential does not pass). */
  requireHolderBinding?: boolean;
  /** Verification time (default: now). */
  at?: Date;
};

export type VerifiedPresentation = {
  /** Only the predicates the holder disclosed. */
  predicates: Partial<Record<PredicateClaim, boolean>>;
  holderBound: boolean;
  issuedAt: Date;
  expiresAt: Date;
};

export class PresentationError extends Error {}

/** Asymmetric signatures only for the holder's key binding (never `none`, never HMAC). */
const HOLDER_ALGORITHMS = ["ES256", "ES384", "ES512", "EdDSA", "Ed25519", "RS256", "PS256"];

/** One key set per JWKS URL, so jose's cache (and its cooldown) works across calls. */
const remoteKeySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
function keySetOf(jwks: JSONWebKeySet | URL) {
  if (!(jwks instanceof URL)) return createLocalJWKSet(jwks);
  let set = remoteKeySets.get(jwks.href);
  if (!set) remoteKeySets.set(jwks.href, (set = createRemoteJWKSet(jwks)));
  return set;
}

/** RFC 9901 7.1: every disclosure must be referenced by a digest of the payload (this credential is flat: top-level `_sd`). */
function assertDisclosuresReferenced(presentation: string, claims: Record<string, unknown>) {
  const referenced = new Set(Array.isArray(claims._sd) ? (claims._sd as unknown[]) : []);
  const parts = presentation.split("~");
  // issuer JWT ~ disclosures ~ (key binding JWT or empty)
  for (const disclosure of parts.slice(1, -1)) {
    if (!referenced.has(createHash("sha256").update(disclosure, "ascii").digest("base64url"))) {
      throw new PresentationError("A disclosure is not part of the credential");
    }
  }
}

export async function verifyPredicatePresentation(presentation: string, options: PresentationOptions): Promise<VerifiedPresentation> {
  const keys = keySetOf(options.jwks);
  const at = Math.floor((options.at ?? new Date()).getTime() / 1000);
  const issuerJwt = presentation.split("~")[0] ?? "";
  let header: Record<string, unknown>;
  let claims: Record<string, unknown>;
  try {
    [header, claims] = [decodeProtectedHeader(issuerJwt), decodeJwt(issuerJwt)];
  } catch {
    throw new PresentationError("Not an SD-JWT: the issuer-signed JWT does not decode");
  }
  if (header.typ !== SD_JWT_VC_TYP) throw new PresentationError(`typ must be ${SD_JWT_VC_TYP}`);
  if (claims.iss !== options.issuer) throw new PresentationError("Issued by another issuer");
  if (claims.vct !== PREDICATE_VCT) throw new PresentationError(`vct must be ${PREDICATE_VCT}`);
  if (typeof claims.exp !== "number") throw new PresentationError("The credential has no expiry");
  if (claims._sd_alg !== "sha-256") throw new PresentationError("_sd_alg must be sha-256");
  assertDisclosuresReferenced(presentation, claims);
  const holderJwk = (claims.cnf as { jwk?: JWK } | undefined)?.jwk;
  if (!holderJwk && (options.requireHolderBinding ?? options.nonce !== undefined)) {
    throw new PresentationError("The credential is not bound to a holder key: anyone holding a copy could present it");
  }
  if (holderJwk && (!options.nonce || !options.audience)) {
    throw new PresentationError("The credential is holder-bound: give the nonce and audience the holder's key binding must carry");
  }

  const sdJwt = new SDJwtVcInstance({
    hasher: digest,
    verifier: async (data, signature) => {
      try {
        await compactVerify(`${data}.${signature}`, keys, { algorithms: ["RS256"] });
        return true;
      } catch {
        return false;
      }
    },
    kbVerifier: async (data, signature) => {
      if (!holderJwk) return false;
      try {
        await compactVerify(`${data}.${signature}`, (kbHeader) => importJWK(holderJwk, kbHeader.alg), { algorithms: HOLDER_ALGORITHMS });
        return true;
      } catch {
        return false;
      }
    },
  });
  let verified: Awaited<ReturnType<SDJwtVcInstance["verify"]>>;
  try {
    verified = await sdJwt.verify(presentation, { currentDate: at, ...(holderJwk ? { keyBindingNonce: options.nonce } : {}) });
  } catch (err) {
    throw new PresentationError(err instanceof Error ? err.message : "The presentation does not verify");
  }
  if (holderJwk) {
    const kb = verified.kb?.payload;
    if (!kb || kb.aud !== options.audience) throw new PresentationError("The key binding is for another audience");
    if (typeof kb.iat !== "number" || Math.abs(at - kb.iat) > HOLDER_PROOF_MAX_AGE_SECONDS) throw new PresentationError("The key binding is too old");
  }
  const payload = verified.payload as Record<string, unknown>;
  const predicates: VerifiedPresentation["predicates"] = {};
  for (const name of PREDICATE_CLAIMS) if (typeof payload[name] === "boolean") predicates[name] = payload[name] as boolean;
  return {
    predicates,
    holderBound: Boolean(holderJwk),
    issuedAt: new Date(Number(payload.iat) * 1000),
    expiresAt: new Date(Number(payload.exp) * 1000),
  };
}
