import type { LicenceStatus } from "./types";

/** A licence number as registries compare it: upper case, without spaces, dashes, dots or slashes ("a-123 45" -> "A12345"). */
export function normaliseLicenceNumber(value: string): string {
  return value.normalize("NFKC").toUpperCase().replace(/[\s\-./]/g, "");
}

/**
 * The check's status for a registry's own status words (README
 * "Professional licences", import format). Null: words this service does
 * not recognise (the importer refuses the row, so nothing is guessed).
 */
export function licenceStatusOf(raw: string): LicenceStatus | null {
  const s = raw.trim().toLowerCase();
  if (/^(active|current|clear|valid|good standing|in good standing|licensed|a)$/.test(s)) return "active";
  // Words that restrict a licence win over a leading "Active" ("Active - Probation" is not simply active).
  if (/revok|surrender|cancel|denied|void/.test(s)) return "revoked";
  if (/suspen|probation|restrict|summary/.test(s)) return "suspended";
  if (/expir|lapse|delinquent|not renewed/.test(s)) return "expired";
  if (/inactive|retired|deceased|closed|deactivated|^i$|^d$/.test(s)) return "inactive";
  if (/^active\b/.test(s)) return "active";
  return null;
}

/** The status a licence has on `today` (ISO date): an active licence past its expiry date is expired. */
export function statusOn(status: LicenceStatus, expiresOn: string | null, today: string): LicenceStatus {
  return status === "active" && expiresOn !== null && expiresOn < today ? "expired" : status;
}
