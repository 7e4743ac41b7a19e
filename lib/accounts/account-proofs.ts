import { now } from "@/lib/clock";
import { isLicenceServable, isLicenceValid } from "@/lib/identity/predicates";
import { isIdVerified, readProfile, type ProofState } from "@/lib/identity/profile";

/**
 * What an account has proven, for the OIDC account reads (spec 2.10): read
 * from its reusable profile (lib/identity), judged now. Only verdicts and
 * licence facts leave here, never document fields.
 */
export type LicenceProof = {
  type: string;
  number: string | null;
  status: string | null;
  expiresOn: string | null;
  issuer: string | null;
  verifiedAt: string | null;
  /** Judged now (lib/identity/profile.ts proofState). */
  state: ProofState;
  /** A valid proof the registry did not call lapsed (lib/identity/predicates.ts isLicenceValid). */
  valid: boolean;
  /** Not expired, not lapsed, confirmed lately: may be served at all (isLicenceServable). */
  servable: boolean;
};

export type AccountProofs = {
  idVerified: boolean;
  humanVerified: boolean;
  licences: LicenceProof[];
};

export async function readAccountProofs(accountId: string): Promise<AccountProofs> {
  const at = now();
  const profile = await readProfile(accountId, at);
  const idVerified = isIdVerified(profile);
  return {
    idVerified,
    // Spec 2.10: falls back to id_verified when no explicit human check exists (the enrolled face is one).
    humanVerified: profile.face ? profile.face.state === "valid" : idVerified,
    licences: profile.licences.map((l) => ({
      type: l.content.license_type,
      number: l.content.license_number,
      status: l.content.status,
      expiresOn: l.content.expires_on,
      issuer: l.content.issuing_authority,
      verifiedAt: l.verifiedAt.toISOString(),
      state: l.state,
      valid: isLicenceValid(l, at),
      servable: isLicenceServable(l, at),
    })),
  };
}
