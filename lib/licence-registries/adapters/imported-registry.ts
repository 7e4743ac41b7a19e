import { db } from "@/lib/db/client";
import { openRegistryRow, type RegistryRow } from "../import/registry-row";
import { lastNameKeys, licenceNumberKeys } from "../registry-index";
import {
  LICENCE_INPUT_FIELDS,
  RegistryUnavailableError,
  type CatalogueEntry,
  type LicenceInputField,
  type RegistryAdapter,
  type RegistryLicence,
} from "../types";

/**
 * The registries loaded with `registry:import` (README "Importing a licence
 * registry"): sealed rows in registry_licences, found by keyed hashes of the
 * licence number and the holder's last name.
 */

function toLicence(row: RegistryRow): RegistryLicence {
  return {
    license_number: row.license_number,
    license_type: row.license_type,
    holder: { first: row.first_name, last: row.last_name, full: row.full_name },
    status: row.status,
    registry_status: row.registry_status,
    expires_on: row.expires_on,
    state: row.state,
    issuing_authority: row.issuing_authority,
  };
}

/** Opens sealed rows; a row sealed under a key no longer configured makes the registry unusable until it is re-imported. */
function openRows(providerCode: string, rows: { sealed: Uint8Array }[]): RegistryRow[] {
  try {
    return rows.map((r) => openRegistryRow(r.sealed));
  } catch {
    throw new RegistryUnavailableError(
      `The registry "${providerCode}" was imported under an encryption key that is not configured: put it in ENCRYPTION_KEY_PREVIOUS and run svc keys:rotate, or import the registry again`,
      "bad_response",
    );
  }
}

export const importedRegistryAdapter: RegistryAdapter = {
  async lookup(query, { signal }) {
    const number = query.inputs.license_number;
    if (!number) return [];
    if (signal.aborted) throw new RegistryUnavailableError("The lookup was cancelled", "timeout");
    const providerCode = query.entry.provider_code;
    const prisma = await db();
    const rows = await prisma.registryLicence.findMany({
      where: { providerCode, numberKey: { in: licenceNumberKeys(number) }, credentialCode: query.entry.credential_code },
      select: { sealed: true },
      orderBy: { id: "asc" },
    });
    if (rows.length === 0) {
      // Nothing found: make sure that is not because the index keys were made under another ENCRYPTION_KEY.
      const probe = await prisma.registryLicence.findFirst({ where: { providerCode }, select: { sealed: true } });
      if (probe) openRows(providerCode, [probe]);
      return [];
    }
    return openRows(providerCode, rows).map(toLicence);
  },
};

/**
 * The licences of an imported registry whose holder's last name is
 * `lastName` once normalised (case, accents, apostrophes and punctuation
 * ignored: "O'Brien" finds "OBRIEN"), at most `limit`, in file order.
 */
export async function searchImportedRegistryByName(
  providerCode: string,
  lastName: string,
  options: { limit?: number } = {},
): Promise<RegistryRow[]> {
  const prisma = await db();
  const rows = await prisma.registryLicence.findMany({
    where: { providerCode, lastNameKey: { in: lastNameKeys(lastName) } },
    select: { sealed: true },
    orderBy: { id: "asc" },
    take: options.limit ?? 100,
  });
  return openRows(providerCode, rows);
}

/** Discovery rows (spec 2.6) for every imported credential, by state, provider code and credential name. */
export async function importedCatalogue(): Promise<CatalogueEntry[]> {
  const prisma = await db();
  const credentials = await prisma.registryCredential.findMany({
    include: { provider: true },
    orderBy: [{ provider: { stateCode: "asc" } }, { providerCode: "asc" }, { name: "asc" }],
  });
  return credentials.map((c) => ({
    provider_code: c.providerCode,
    provider_display_name: c.provider.displayName,
    credential_code: c.code,
    credential_name: c.name,
    state_code: c.provider.stateCode,
    remote_code: c.remoteCode,
    required_fields: c.provider.requiredFields.filter((f): f is LicenceInputField =>
      (LICENCE_INPUT_FIELDS as readonly string[]).includes(f),
    ),
  }));
}
