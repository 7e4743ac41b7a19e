/**
 * Professional licences (spec 1.2, 2.2, 2.6; README "Professional
 * licences"): the shapes shared by credential discovery, the registry
 * adapters and the `credential` check.
 */

/** A licence's standing as the check judges it; `registry_status` keeps the registry's own words. */
export const LICENCE_STATUSES = ["active", "expired", "suspended", "revoked", "inactive"] as const;
export type LicenceStatus = (typeof LICENCE_STATUSES)[number];

/** The inputs a provider may ask the person for (spec 2.6 `required_fields`). */
export const LICENCE_INPUT_FIELDS = ["license_number", "npi_number"] as const;
export type LicenceInputField = (typeof LICENCE_INPUT_FIELDS)[number];

/** One discovery row (spec 2.6): a credential a provider serves in a jurisdiction, keyed by `credential_code`. */
export type CatalogueEntry = {
  provider_code: string;
  provider_display_name: string;
  credential_code: string;
  credential_name: string;
  state_code: string;
  remote_code: string;
  required_fields: LicenceInputField[];
};

/** A person's name as two parts; `full` when the source has one. */
export type HolderName = { first: string | null; last: string | null; full: string | null };

/** A licence as a registry holds it. */
export type RegistryLicence = {
  license_number: string;
  license_type: string;
  holder: HolderName;
  status: LicenceStatus;
  /** The registry's own status words, e.g. "Clear", "A", "Revoked - 2024-01-03". */
  registry_status: string;
  /** ISO date; null when the registry publishes none (NPPES). */
  expires_on: string | null;
  state: string;
  issuing_authority: string;
};

export type LicenceQuery = {
  entry: CatalogueEntry;
  /** The person's answers to `required_fields`, trimmed. */
  inputs: Partial<Record<LicenceInputField, string>>;
};

/**
 * A registry adapter: finds the licences a query names. The check picks the
 * one whose holder is the verified person (lib/licence-registries/holder-name.ts).
 * An empty list: not in the registry. A registry that cannot answer (time-out,
 * HTTP error, a reply it cannot read) throws RegistryUnavailableError, never
 * an empty list and never a pass.
 */
export type RegistryAdapter = {
  /** The adapter's provider codes handled (imported registries: every code in registry_providers). */
  lookup(query: LicenceQuery, options: { signal: AbortSignal }): Promise<RegistryLicence[]>;
};

export class RegistryUnavailableError extends Error {
  constructor(
    message: string,
    readonly reason: "timeout" | "http_error" | "bad_response" | "network",
  ) {
    super(message);
    this.name = "RegistryUnavailableError";
  }
}

/**
 * A lookup to keep: sealed in the session (artifact `licence_record`) until
 * the decision. A passed licence becomes the account's proof; one in review
 * shows the reviewer what was asked and what the registry holds.
 */
export type LicenceRecord = {
  /** The licence found (null when the registry did not answer). */
  licence: RegistryLicence | null;
  lookup: { provider_code: string; credential_code: string; inputs: Partial<Record<LicenceInputField, string>> };
  /** The name of the document the licence was matched against. */
  verified_holder: HolderName;
  /** When the registry was asked (ISO timestamp). */
  looked_up_at: string;
};
