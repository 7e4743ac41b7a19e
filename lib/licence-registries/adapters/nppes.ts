import { env } from "@/lib/config/env";
import { JURISDICTIONS } from "../jurisdictions";
import { normaliseLicenceNumber } from "../normalise";
import { RegistryUnavailableError, type CatalogueEntry, type LicenceQuery, type RegistryAdapter, type RegistryLicence } from "../types";

/**
 * The NPPES NPI Registry (CMS's national registry of US health-care
 * providers, public JSON API version 2.1, docs/licences.md).
 * A lookup reads one NPI (`?version=2.1&number=`) and keeps the taxonomies
 * of the chosen credential in the chosen state whose licence number is the
 * one given. NPPES publishes no licence expiry or board status: a listed
 * licence of an active individual NPI is `active` with no expiry, and a
 * deactivated NPI is `inactive`; the daily re-check notices a licence that
 * leaves the registry.
 */
export const NPPES_PROVIDER_CODE = "nppes";
const DISPLAY_NAME = "NPPES NPI Registry (CMS)";

/** The credentials offered through NPPES: NUCC taxonomy code prefixes per licence type. */
export const NPPES_CREDENTIALS = [
  { slug: "physician", name: "Physician (MD/DO)", taxonomyPrefixes: ["207", "208"] },
  { slug: "dentist", name: "Dentist", taxonomyPrefixes: ["1223"] },
  { slug: "registered-nurse", name: "Registered Nurse", taxonomyPrefixes: ["163W"] },
  { slug: "nurse-practitioner", name: "Nurse Practitioner", taxonomyPrefixes: ["363L"] },
  { slug: "physician-assistant", name: "Physician Assistant", taxonomyPrefixes: ["363A"] },
  { slug: "pharmacist", name: "Pharmacist", taxonomyPrefixes: ["1835"] },
  { slug: "psychologist", name: "Psychologist", taxonomyPrefixes: ["103T"] },
] as const;

export function nppesEnabled(): boolean {
  return env().NPPES_BASE_URL !== "off";
}

/** NPPES's discovery rows: every credential in every jurisdiction (empty when NPPES_BASE_URL=off). */
export function nppesCatalogue(): CatalogueEntry[] {
  if (!nppesEnabled()) return [];
  return Object.keys(JURISDICTIONS).flatMap((state) =>
    NPPES_CREDENTIALS.map((c) => ({
      provider_code: NPPES_PROVIDER_CODE,
      provider_display_name: DISPLAY_NAME,
      credential_code: `${NPPES_PROVIDER_CODE}-${state.toLowerCase()}-${c.slug}`,
      credential_name: c.name,
      state_code: state,
      remote_code: c.taxonomyPrefixes.join(","),
      required_fields: ["npi_number", "license_number"],
    })),
  );
}

type NppesTaxonomy = { code?: unknown; desc?: unknown; state?: unknown; license?: unknown };
type NppesResult = { number?: unknown; enumeration_type?: unknown; basic?: Record<string, unknown>; taxonomies?: unknown };
type NppesReply = { result_count?: unknown; results?: unknown; Errors?: unknown };

const str = (v: unknown) => (typeof v === "string" ? v.trim() : typeof v === "number" ? String(v) : "");

async function fetchNpi(npi: string, signal: AbortSignal): Promise<NppesReply> {
  const url = new URL(env().NPPES_BASE_URL);
  url.searchParams.set("version", "2.1");
  url.searchParams.set("number", npi);
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(env().REGISTRY_TIMEOUT_MS)]), headers: { Accept: "application/json" } });
  } catch (err) {
    const timedOut = (err as Error).name === "TimeoutError" || (err as Error).name === "AbortError";
    throw new RegistryUnavailableError(timedOut ? "NPPES did not answer in time" : `NPPES could not be reached: ${(err as Error).message}`, timedOut ? "timeout" : "network");
  }
  if (!res.ok) throw new RegistryUnavailableError(`NPPES answered HTTP ${res.status}`, "http_error");
  let body: unknown;
  try {
    body = await res.json();
  } catch (err) {
    const timedOut = (err as Error).name === "TimeoutError" || (err as Error).name === "AbortError";
    throw new RegistryUnavailableError(timedOut ? "NPPES did not answer in time" : "NPPES answered something other than JSON", timedOut ? "timeout" : "bad_response");
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new RegistryUnavailableError("NPPES answered an unexpected shape", "bad_response");
  const reply = body as NppesReply;
  if (reply.Errors !== undefined) {
    const first = Array.isArray(reply.Errors) ? (reply.Errors[0] as { description?: unknown } | undefined) : undefined;
    throw new RegistryUnavailableError(`NPPES refused the query: ${str(first?.description) || "unknown error"}`, "bad_response");
  }
  if (!Array.isArray(reply.results)) throw new RegistryUnavailableError("NPPES answered without results", "bad_response");
  return reply;
}

/** The licences of one NPPES record that answer the query (state, taxonomy prefix, licence number). */
export function licencesOfNppesResult(result: NppesResult, query: LicenceQuery): RegistryLicence[] {
  // A record this adapter cannot read is the registry's problem, never "not found".
  if (!result || typeof result !== "object" || !["NPI-1", "NPI-2"].includes(str(result.enumeration_type)) || !Array.isArray(result.taxonomies)) {
    throw new RegistryUnavailableError("NPPES answered a record without its enumeration type or taxonomies", "bad_response");
  }
  if (str(result.number) !== query.inputs.npi_number) throw new RegistryUnavailableError("NPPES answered another NPI than the one asked", "bad_response");
  if (str(result.enumeration_type) !== "NPI-1") return []; // organisations hold no professional licence
  const basic = result.basic ?? {};
  const wanted = normaliseLicenceNumber(query.inputs.license_number ?? "");
  const prefixes = query.entry.remote_code.split(",");
  const active = str(basic.status).toUpperCase() === "A";
  const taxonomies = result.taxonomies as NppesTaxonomy[];
  return taxonomies
    .filter(
      (t) =>
        str(t.state).toUpperCase() === query.entry.state_code &&
        prefixes.some((p) => str(t.code).toUpperCase().startsWith(p)) &&
        wanted !== "" &&
        normaliseLicenceNumber(str(t.license)) === wanted,
    )
    .map((t) => ({
      license_number: str(t.license),
      license_type: query.entry.credential_name,
      holder: { first: str(basic.first_name) || null, last: str(basic.last_name) || null, full: null },
      status: active ? "active" : "inactive",
      registry_status: `NPI ${active ? "active" : `status ${str(basic.status) || "unknown"}`}; ${str(t.desc) || str(t.code)}`,
      expires_on: null,
      state: query.entry.state_code,
      issuing_authority: `${JURISDICTIONS[query.entry.state_code] ?? query.entry.state_code} licensing board (listed in NPPES)`,
    }));
}

export const nppesAdapter: RegistryAdapter = {
  async lookup(query, { signal }) {
    const npi = query.inputs.npi_number;
    if (!npi || !query.inputs.license_number) return [];
    const reply = await fetchNpi(npi, signal);
    return (reply.results as NppesResult[]).flatMap((r) => licencesOfNppesResult(r, query));
  },
};
