import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import { importedCatalogue, importedRegistryAdapter } from "./adapters/imported-registry";
import { nppesAdapter, nppesCatalogue, nppesEnabled, NPPES_PROVIDER_CODE } from "./adapters/nppes";
import { JURISDICTIONS, jurisdictionCode } from "./jurisdictions";
import type { CatalogueEntry, RegistryAdapter } from "./types";

/**
 * Credential discovery (spec 2.6, 4.4): the credentials the configured
 * providers serve, from the built-in NPPES adapter (unless NPPES_BASE_URL=off)
 * and the imported registries. `licenseTypes` (a workflow's
 * `credential.license_types`) narrows the list to those names; empty keeps all.
 */
export type LicenceTypeFilter = readonly string[];

function allowedBy(filter: LicenceTypeFilter) {
  const wanted = new Set(filter.map((t) => t.trim().toLowerCase()));
  return (entry: CatalogueEntry) => wanted.size === 0 || wanted.has(entry.credential_name.toLowerCase());
}

/** Whether any licence registry is configured: NPPES, or at least one imported registry. */
export async function licenceProvidersConfigured(): Promise<boolean> {
  if (nppesEnabled()) return true;
  const prisma = await db();
  return (await prisma.registryProvider.findFirst({ select: { code: true } })) !== null;
}

export async function listCatalogue(filter: LicenceTypeFilter = []): Promise<CatalogueEntry[]> {
  return [...nppesCatalogue(), ...(await importedCatalogue())].filter(allowedBy(filter));
}

/**
 * A workflow's `credential.license_types` must each be a `credential_name`
 * some configured registry offers (compared without case), else 400 with
 * `settings.credential.license_types.<i>`: a typo would otherwise leave
 * every session without a licence to choose.
 */
export async function assertLicenceTypesOffered(licenceTypes: readonly string[]) {
  if (licenceTypes.length === 0) return;
  const offered = new Set((await listCatalogue()).map((e) => e.credential_name.toLowerCase()));
  const errors: Record<string, string[]> = Object.create(null);
  licenceTypes.forEach((type, i) => {
    if (!offered.has(type.toLowerCase())) {
      errors[`settings.credential.license_types.${i}`] = [`No configured licence registry offers "${type}"; GET /api/v2/credential/states/{state}/providers lists the credential_name values`];
    }
  });
  if (Object.keys(errors).length) {
    throw new ApiError("invalid_request", { message: `Invalid workflow settings: ${Object.keys(errors).join(", ")}`, data: { errors } });
  }
}

/** GET /api/v2/credential/states: the jurisdictions with at least one provider, by name. */
export async function credentialStates(filter: LicenceTypeFilter = []) {
  const codes = new Set((await listCatalogue(filter)).map((e) => e.state_code));
  const states = [...codes]
    .map((code) => ({ state_name: JURISDICTIONS[code] ?? code, state_code: code }))
    .sort((a, b) => a.state_name.localeCompare(b.state_name));
  return { states };
}

/** GET /api/v2/credential/states/{state}/providers: 404 for a code that names no jurisdiction with providers. */
export async function credentialProviders(state: string, filter: LicenceTypeFilter = []) {
  const code = jurisdictionCode(state);
  const providers = code ? (await listCatalogue(filter)).filter((e) => e.state_code === code) : [];
  if (providers.length === 0) {
    throw new ApiError("not_found", { message: `No licence providers for state "${state.slice(0, 10)}"; GET /api/v2/credential/states lists the states` });
  }
  return { providers };
}

/** A selection: its `credential_code`, or (spec 2.6) `provider_code` + `license_type` (= credential_name) + `state_code`. */
export type CredentialSelection = { credential_code?: string; provider_code?: string; license_type?: string; state_code?: string };

/** The catalogue entry a selection names, or null. */
export async function findCatalogueEntry(selection: CredentialSelection, filter: LicenceTypeFilter = []): Promise<CatalogueEntry | null> {
  const entries = await listCatalogue(filter);
  const match = entries.filter((e) =>
    selection.credential_code
      ? e.credential_code === selection.credential_code
      : e.provider_code === selection.provider_code &&
        e.credential_name.toLowerCase() === selection.license_type?.trim().toLowerCase() &&
        e.state_code === jurisdictionCode(selection.state_code ?? ""),
  );
  const entry = match[0] ?? null;
  if (!entry) return null;
  // Given both ways, they must agree.
  if (selection.provider_code && selection.provider_code !== entry.provider_code) return null;
  if (selection.license_type && selection.license_type.trim().toLowerCase() !== entry.credential_name.toLowerCase()) return null;
  return entry;
}

export function adapterFor(entry: Pick<CatalogueEntry, "provider_code">): RegistryAdapter {
  return entry.provider_code === NPPES_PROVIDER_CODE ? nppesAdapter : importedRegistryAdapter;
}
