import { createHmac } from "node:crypto";
import { derivedKey, derivedKeys } from "@/lib/crypto/encryption-key";
import { normaliseNameTokens } from "./holder-name";
import { normaliseLicenceNumber } from "./normalise";

/**
 * Keyed hashes that find a sealed registry licence (registry_licences) by
 * its number or its holder's last name without storing either in clear:
 * HMAC-SHA256 under a key derived from ENCRYPTION_KEY, of the normalised
 * value. A row's keys are made under the key that sealed it; `svc
 * keys:rotate` re-makes them with the re-sealing (lib/operations/rotate-keys.ts),
 * and lookups try every configured key meanwhile (`...Keys`).
 */
const PURPOSE = "licence-registry-index";

function indexKey(kind: string, value: string, key: Buffer): string {
  return createHmac("sha256", key).update(`${kind}\n${value}`).digest("base64url");
}

export function licenceNumberKey(licenceNumber: string, key = derivedKey(PURPOSE)): string {
  return indexKey("number", normaliseLicenceNumber(licenceNumber), key);
}

/** The last name's normalised words run together, so "De Souza", "de-souza" and "DeSouza" find each other. */
export function lastNameKey(lastName: string, key = derivedKey(PURPOSE)): string {
  return indexKey("last_name", normaliseNameTokens(lastName).join(""), key);
}

/** The number's index keys under every configured ENCRYPTION_KEY (current first). */
export function licenceNumberKeys(licenceNumber: string): string[] {
  return derivedKeys(PURPOSE).map((key) => licenceNumberKey(licenceNumber, key));
}

export function lastNameKeys(lastName: string): string[] {
  return derivedKeys(PURPOSE).map((key) => lastNameKey(lastName, key));
}
