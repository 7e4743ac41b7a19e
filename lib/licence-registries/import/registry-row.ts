import { openJson, sealJson } from "@/lib/crypto/encryption";
import type { LicenceStatus } from "../types";

/**
 * One licence of an imported registry as it is stored: the whole row,
 * sealed (AES-256-GCM under ENCRYPTION_KEY) in registry_licences.sealed.
 * Only keyed hashes of the number and last name are stored beside it
 * (lib/licence-registries/registry-index.ts).
 */
export type RegistryRow = {
  /** As in the file (trimmed), e.g. "SMB-10001". */
  license_number: string;
  first_name: string;
  last_name: string;
  full_name: string | null;
  /** The credential name (the file's license_type). */
  license_type: string;
  /** The board's own status words, e.g. "Clear". */
  registry_status: string;
  /** What the check makes of them (lib/licence-registries/normalise.ts licenceStatusOf). */
  status: LicenceStatus;
  /** ISO date (YYYY-MM-DD), or null when the file gives none. */
  expires_on: string | null;
  /** Two-letter jurisdiction of the provider. */
  state: string;
  issuing_authority: string;
};

export function sealRegistryRow(row: RegistryRow): Uint8Array<ArrayBuffer> {
  return sealJson(row);
}

/** Throws when the row was sealed under a key that is neither ENCRYPTION_KEY nor in ENCRYPTION_KEY_PREVIOUS. */
export function openRegistryRow(sealed: Uint8Array): RegistryRow {
  return openJson<RegistryRow>(sealed);
}
