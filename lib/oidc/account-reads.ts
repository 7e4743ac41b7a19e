import { readAccountProofs } from "@/lib/accounts/account-proofs";
import { now } from "@/lib/clock";
import { identityPredicates } from "@/lib/identity/predicates";
import { readProfile } from "@/lib/identity/profile";
import { requireAccessToken } from "./access-token";
import type { OidcRequest } from "./http";

/**
 * The account reads (spec 4.5, 2.10). Bearer access tokens; they never run a
 * check and never return raw identity data (date of birth, document number,
 * address).
 */

/**
 * GET /api/auth/oidc/userinfo: top-level claims; needs `openid` and
 * `profile` (spec 2.10, 4.5). `name` is the name as verified on the
 * account's valid document proof, else the name the person gave, else left
 * out. With `zkp` it adds the predicates (lib/identity/predicates.ts:
 * `age_over_18`, `age_over_21`, `licence_valid` where known), never the
 * date of birth.
 */
export async function readUserinfo(req: OidcRequest) {
  const t = await requireAccessToken(req, ["profile"], { withIdVerified: true });
  // OIDC Core 5.3.2: a claim without a value is left out, not null.
  const name = t.verifiedName ?? t.name;
  return {
    sub: t.accountId,
    svc_id: t.accountId,
    preferred_username: t.preferredUsername ?? t.email,
    email: t.email,
    email_verified: t.emailVerified,
    ...(name ? { name } : {}),
    id_verified: t.idVerified === true,
    ...(t.scopes.includes("zkp") ? identityPredicates(await readProfile(t.accountId, now()), now()) : {}),
  };
}

/**
 * GET /api/auth/oidc/licenses: `{ licenses }`; needs `doctor_license`. Spec
 * 4.5 declares no scope for it, but the answer carries licence numbers: an
 * app the person signed into with `openid` alone would read them without
 * the consent screen ever naming them. With `doctor_license` the consent
 * screen says what is released. The deviation is documented in docs/oidc.md
 * "Account reads". A licence past its
 * expiry, or that a registry re-check found lapsed, is never served.
 */
export async function readLicences(req: OidcRequest) {
  const t = await requireAccessToken(req, ["doctor_license"]);
  const proofs = await readAccountProofs(t.accountId);
  return {
    licenses: proofs.licences
      .filter((l) => l.servable)
      .map((l) => ({ type: l.type, number: l.number, status: l.status, expires_on: l.expiresOn, issuer: l.issuer })),
  };
}

/** GET /api/auth/oidc/verifications: `{ verifications }`; needs `verifications`. */
export async function readVerifications(req: OidcRequest) {
  const t = await requireAccessToken(req, ["verifications"]);
  const proofs = await readAccountProofs(t.accountId);
  return {
    verifications: {
      human_verified: proofs.humanVerified,
      id_verified: proofs.idVerified,
      licenses: proofs.licences.map((l) => ({
        license_type: l.type,
        verified: l.valid,
        verified_from: l.verifiedAt,
        expire_at: l.expiresOn ? `${l.expiresOn}T23:59:59.999Z` : null,
      })),
    },
  };
}
