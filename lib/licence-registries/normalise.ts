import type { LicenceStatus } from "./types";

/** A licence number as registries compare it: upper case, without spaces, dashes, dots or slashes ("a-123 45" -> "A12345"). */
export function normaliseLicenceNumber(value: string): string {
  return value.normalize("NFKC").toUpperCase().replace(/[\s\-./]/g, "");
}

/**
 * Board words that mean an active licence in good standing, compared without
 * case, with runs of spaces as one and " - ", "/" and "," as a space
 * ("Active - Unrestricted" = "Active/Unrestricted"). Only these exact phrases:
 * "Active" followed by anything else is not guessed to be active.
 */
const ACTIVE_PHRASES = new Set([
  "active",
  "current",
  "clear",
  "valid",
  "licensed",
  "a",
  "good standing",
  "in good standing",
  "active in good standing",
  "unrestricted",
  "active unrestricted",
  "clear unrestricted",
  "active clear",
]);

/**
 * The check's status for a registry's own status words (README "Importing a
 * licence registry", status words): an exact active phrase (ACTIVE_PHRASES);
 * otherwise words that revoke, restrict, end or deactivate a licence, in that
 * order (they win over a leading "Active": "Active - Probation" is
 * suspended). Null: words this service does not recognise, including
 * "Active - <anything else>" (the importer refuses the row, so nothing is
 * guessed).
 */
export function licenceStatusOf(raw: string): LicenceStatus | null {
  const s = raw
    .normalize("NFKC")
    .toLowerCase()
    .replace(/\s*[-\u2013\u2014/,]\s*/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (ACTIVE_PHRASES.has(s)) return "active";
  if (/revok|surrender|cancel|denied|void/.test(s)) return "revoked";
  // "\b": "Unrestricted", "Unlimited" and "Unconditional" are not restrictions (nor recognised unless listed above).
  if (/suspen|probation|\brestrict|summary|disciplin|investigat|\bcondition|not in good standing|stipulat|\blimit/.test(s)) {
    return "suspended";
  }
  if (/expir|lapse|delinquent|not renewed/.test(s)) return "expired";
  if (/inactive|retired|deceased|closed|deactivated|^i$|^d$/.test(s)) return "inactive";
  return null;
}

/** The status a licence has on `today` (ISO date): an active licence past its expiry date is expired. */
export function statusOn(status: LicenceStatus, expiresOn: string | null, today: string): LicenceStatus {
  return status === "active" && expiresOn !== null && expiresOn < today ? "expired" : status;
}
