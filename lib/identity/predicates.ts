import { ageBands, isIdVerified, type Judged, type Profile } from "./profile";

/** The predicates a person can prove without showing the data behind them (the `zkp` scope, spec 4.5). */
export const PREDICATE_CLAIMS = ["id_verified", "age_over_18", "age_over_21", "licence_valid"] as const;
export type PredicateClaim = (typeof PREDICATE_CLAIMS)[number];

/**
 * The `zkp` scope's predicates (docs/oidc.md "Proofs, not data"): yes/no answers
 * derived from the person's valid proofs, never the facts behind them (the
 * date of birth, the document, the licence number). A predicate the profile
 * cannot answer (no valid document: the age is unknown) is left out, never
 * guessed as false; `id_verified` is always answered.
 */
export type Predicates = { id_verified: boolean } & Partial<Record<Exclude<PredicateClaim, "id_verified">, boolean>>;

const LAPSED_STATUS = /expired|revoked|suspended|inactive|lapsed|not_found/i;

type JudgedLicence = Pick<Judged<"licence">, "state" | "verifiedAt"> & { content: { status: string | null; checked_at?: string } };

/**
 * A licence its registry has not confirmed for this many days (the daily
 * re-check could not reach it) is not served until a re-check confirms it:
 * a registry that publishes no expiry (NPPES) would otherwise vouch for a
 * licence indefinitely.
 */
export const LICENCE_CONFIRMATION_DAYS = 7;

/** A licence its registry no longer calls active (the daily re-check, lib/credentials/recheck-licences.ts), or has not confirmed lately. */
function isLapsed(licence: JudgedLicence, at: Date): boolean {
  if (LAPSED_STATUS.test(licence.content.status ?? "")) return true;
  const confirmed = licence.content.checked_at ? Date.parse(licence.content.checked_at) : licence.verifiedAt.getTime();
  return at.getTime() - confirmed > LICENCE_CONFIRMATION_DAYS * 86_400_000;
}

/** A licence that may be served at all (spec 1.2): not past its expiry, not lapsed, confirmed lately. */
export function isLicenceServable(licence: JudgedLicence, at: Date): boolean {
  return licence.state !== "expired" && !isLapsed(licence, at);
}

/** A licence counts as valid: servable and not stale. */
export function isLicenceValid(licence: JudgedLicence, at: Date): boolean {
  return licence.state === "valid" && !isLapsed(licence, at);
}

export function identityPredicates(profile: Profile, at: Date): Predicates {
  const out: Predicates = { id_verified: isIdVerified(profile) };
  // Only a valid document answers the age (an expired or stale one is never served as valid).
  if (profile.document?.state === "valid") {
    const bands = ageBands(profile.document, at);
    if (bands.is_18_plus !== null) out.age_over_18 = bands.is_18_plus;
    if (bands.is_21_plus !== null) out.age_over_21 = bands.is_21_plus;
  }
  if (profile.licences.length > 0) out.licence_valid = profile.licences.some((l) => isLicenceValid(l, at));
  return out;
}
