import { createHmac } from "node:crypto";
import { derivedKey } from "@/lib/crypto/encryption-key";
import { normaliseNameTokens } from "./holder-name";
import { normaliseLicenceNumber } from "./normalise";

/**
 * Keyed hashes that find a sealed registry licence (registry_licences) by
 * its number or its holder's last name without storing either in clear:
 * HMAC-SHA256 under a key derived from ENCRYPTION_KEY, of the normalised
 * value. Re-import a registry after changing ENCRYPTION_KEY.
 */
function indexKey(kind: string, value: string): string {
  return createHmac("sha256", derivedKey("licence-registry-index")).update(`${kind}\n${value}`).digest("base64url");
}

export function licenceNumberKey(licenceNumber: string): string {
  return indexKey("number", normaliseLicenceNumber(licenceNumber));
}

/** The last name's normalised words run together, so "De Souza", "de-souza" and "DeSouza" find each other. */
export function lastNameKey(lastName: string): string {
  return indexKey("last_name", normaliseNameTokens(lastName).join(""));
}
