/**
 * The predicate credential's format (docs/oidc.md "Proofs, not data"), shared by
 * the issuer (lib/oidc/predicate-credential.ts) and the verifier helper
 * (lib/oidc/verify-predicate-presentation.ts), which imports nothing of the
 * server so a relying party can use it as it is.
 */

/** The SD-JWT VC type of the credential (`vct`). */
export const PREDICATE_VCT = "urn:svc:vct:identity-predicates:1" as const;

/** The issuer-signed JWT's `typ` (SD-JWT VC). */
export const SD_JWT_VC_TYP = "dc+sd-jwt";

/** The `typ` of the holder's key proof (OpenID for Verifiable Credential Issuance, section 8.2.1.1). */
export const KEY_PROOF_TYP = "openid4vci-proof+jwt";

/** Selectively disclosable claims: the `zkp` predicates (lib/identity/predicates.ts decides them). */
export { PREDICATE_CLAIMS, type PredicateClaim } from "@/lib/identity/predicates";

/** How long a credential is valid: a day, so a predicate that stops being true (a document that expires) is not carried for long. */
export const CREDENTIAL_TTL_SECONDS = 24 * 60 * 60;

/** How old a holder's key proof, or a key-binding JWT at verification, may be. */
export const HOLDER_PROOF_MAX_AGE_SECONDS = 300;
