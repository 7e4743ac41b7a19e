import type { PredicateClaim } from "@/lib/oidc/predicate-credential-format";
import { ageBands, isIdVerified, type Judged, type Profile } from "./profile";

/**
 * The `zkp` scope's predicates (README "Proofs, not data"): yes/no answers
 * derived from the person's valid proofs, never the facts behind them (the
 * date of birth, the document, the licence number). A predicate the profile
 * cannot answer (no valid document: the age is unknown) is left out, never
 * guessed as false; `id_verified` is always answered.
 */
export type Predicates = { id_verified: boolean } & Partial<Record<Exclude<PredicateClaim, "id_verified">, boolean>>;

const LAPSED_STATUS = /expired|revoked|suspended|inactive|lapsed|not_found/i;

type JudgedLicence = Pick<Judged<"licence">, "state"> & { content: { status: string | null } };

/** A licence its registry no longer calls active (the daily re-check, lib/credentials/recheck-licences.ts). */
function isLapsed(licence: JudgedLicence): boolean {
  return LAPSED_STATUS.test(licence.content.status ?? "");
}

/** A licence that may be served at all (spec 1.2): not past its expiry, and not lapsed in its registry. */
export function isLicenceServable(licence: JudgedLicence): boolean {
  return licence.state !== "expired" && !isLapsed(licence);
}

/** A licence counts as valid: a valid proof (not expired, not stale) whose registry status is not a lapse. */
export function isLicenceValid(licence: JudgedLicence): boolean {
  return licence.state === "valid" && !isLapsed(licence);
}

export function identityPredicates(profile: Profile, at: Date): Predicates {
  const out: Predicates = { id_verified: isIdVerified(profile) };
  // Only a valid document answers the age (an expired or stale one is never served as valid).
  if (profile.document?.state === "valid") {
    const bands = ageBands(profile.document, at);
    if (bands.is_18_plus !== null) out.age_over_18 = bands.is_18_plus;
    if (bands.is_21_plus !== null) out.age_over_21 = bands.is_21_plus;
  }
  if (profile.licences.length > 0) out.licence_valid = profile.licences.some(isLicenceValid);
  return out;
}
