import { createHash } from "node:crypto";
import fs from "node:fs";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { sql } from "kysely";
import { prepareQuery, runPreparedInTransaction, typedSql } from "@/lib/db/typed-sql";
import { ApiError } from "@/lib/http/api-error";
import { jurisdictionCode } from "../jurisdictions";
import { lastNameKey, licenceNumberKey } from "../registry-index";
import { LICENCE_INPUT_FIELDS, type LicenceInputField } from "../types";
import { formatOfPath, parseRegistryFile, REGISTRY_FILE_LIMITS, type RegistryFileFormat } from "./parse-registry-file";
import { sealRegistryRow, type RegistryRow } from "./registry-row";

/**
 * Loads a licence registry export into registry_providers,
 * registry_credentials and registry_licences (README "Importing a licence
 * registry"). The whole file is validated first; then one transaction
 * replaces everything the provider had, so a failed import leaves the old
 * data as it was.
 */

export type ImportRegistryInput = {
  providerCode: string;
  displayName: string;
  stateCode: string;
  issuingAuthority: string;
  requiredFields?: string[];
  /** Path of the CSV or JSON file. */
  file: string;
  /** Default: by the file's extension (.csv, .json). */
  format?: RegistryFileFormat;
};

export type ImportRegistryResult = {
  provider_code: string;
  state_code: string;
  display_name: string;
  credentials: { credential_code: string; credential_name: string; remote_code: string }[];
  licences: number;
  replaced: boolean;
  sha256: string;
};

const PROVIDER_CODE = /^[a-z0-9][a-z0-9-]{1,39}$/;
/** The built-in NPPES adapter's provider code; its credential codes start with "nppes-". */
const RESERVED_PROVIDER = /^nppes(-|$)/;
const BATCH = 5000;
/** A registry at the row limit (1,000,000 licences) takes minutes to write; the transaction may run that long. */
const TRANSACTION_OPTIONS = { maxWait: 60_000, timeout: 30 * 60_000 };

/**
 * One batch of licences in one INSERT, a parameter per column (unnest of
 * arrays, zipped: the arrays have one element per licence): about three
 * times faster than createMany's parameter per value on large files.
 */
const insertLicences = prepareQuery(
  "registry_insert_licences",
  (v: { providerCode: string; credentialCodes: string[]; numberKeys: string[]; lastNameKeys: string[]; sealed: Uint8Array[] }) =>
    typedSql
      .insertInto("registry_licences")
      .columns(["provider_code", "credential_code", "number_key", "last_name_key", "sealed"])
      .expression(
        typedSql.selectNoFrom((eb) => [
          eb.cast<string>(eb.val(v.providerCode), "text").as("provider_code"),
          sql<string>`unnest(${v.credentialCodes}::text[])`.as("credential_code"),
          sql<string>`unnest(${v.numberKeys}::text[])`.as("number_key"),
          sql<string>`unnest(${v.lastNameKeys}::text[])`.as("last_name_key"),
          sql<Uint8Array>`unnest(${v.sealed}::bytea[])`.as("sealed"),
        ]),
      ),
);

function invalid(message: string, data?: Record<string, unknown>): never {
  throw new ApiError("invalid_request", { message, ...(data ? { data } : {}) });
}

export async function importRegistry(input: ImportRegistryInput): Promise<ImportRegistryResult> {
  const providerCode = input.providerCode.trim();
  if (!PROVIDER_CODE.test(providerCode)) {
    invalid("The provider code is 2 to 40 lower-case letters, digits and dashes, starting with a letter or digit");
  }
  if (RESERVED_PROVIDER.test(providerCode)) invalid(`The provider code "${providerCode}" is reserved for the built-in NPPES registry`);
  const stateCode = jurisdictionCode(input.stateCode);
  if (!stateCode) invalid(`"${input.stateCode}" is not a US state, DC or territory code`);
  const displayName = input.displayName.trim();
  if (displayName.length < 1 || displayName.length > 120) invalid("The display name is 1 to 120 characters");
  const issuingAuthority = input.issuingAuthority.trim();
  if (issuingAuthority.length < 1 || issuingAuthority.length > 200) invalid("The issuing authority is 1 to 200 characters");
  const requiredFields = [...new Set(input.requiredFields ?? ["license_number"])];
  for (const field of requiredFields) {
    if (!(LICENCE_INPUT_FIELDS as readonly string[]).includes(field)) {
      invalid(`Unknown required field "${field}" (one of ${LICENCE_INPUT_FIELDS.join(", ")})`);
    }
  }
  // An imported registry is searched by licence number: without it, no licence could be found.
  if (!requiredFields.includes("license_number")) invalid("The required fields of an imported registry include license_number");

  const format = input.format ?? formatOfPath(input.file);
  if (!format) invalid("Give --format csv or json (the file name ends in neither .csv nor .json)");
  let size: number;
  try {
    size = fs.statSync(input.file).size;
  } catch (err) {
    invalid(`Cannot read ${input.file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  if (size > REGISTRY_FILE_LIMITS.maxBytes) {
    invalid(`The file is ${size} bytes; the limit is ${REGISTRY_FILE_LIMITS.maxBytes} (split the export into several files, each under its own provider code)`);
  }
  const bytes = fs.readFileSync(input.file);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const parsed = parseRegistryFile(bytes, format);
  if (!parsed.ok) {
    const first = parsed.errors[0];
    invalid(
      `The registry file has ${parsed.errorCount} error${parsed.errorCount === 1 ? "" : "s"}; nothing was imported. First: ${first}`,
      { errors: parsed.errors, error_count: parsed.errorCount },
    );
  }

  const credentials = parsed.credentials.map((c) => ({
    code: `${providerCode}-${c.slug}`,
    providerCode,
    name: c.license_type,
    remoteCode: c.remote_code,
    slug: c.slug,
  }));
  const codeOfSlug = new Map(credentials.map((c) => [c.slug, c.code]));

  /** The stored form of one licence: sealed, with its index keys (made batch by batch, so a big file is never all sealed in memory). */
  const stored = (l: (typeof parsed.licences)[number]) => {
    const row: RegistryRow = {
      license_number: l.license_number,
      first_name: l.first_name,
      last_name: l.last_name,
      full_name: l.full_name,
      license_type: l.license_type,
      registry_status: l.registry_status,
      status: l.status,
      expires_on: l.expires_on,
      state: stateCode,
      issuing_authority: issuingAuthority,
    };
    return {
      credentialCode: codeOfSlug.get(l.slug)!,
      numberKey: licenceNumberKey(l.license_number),
      lastNameKey: lastNameKey(l.last_name),
      sealed: sealRegistryRow(row),
    };
  };
  const licenceCount = parsed.licences.length;

  const prisma = await db();
  const replaced = await prisma.$transaction(async (tx) => {
    // Credential codes are unique across providers ("a" + "b-c" and "a-b" + "c" would collide).
    const taken = await tx.registryCredential.findMany({
      where: { code: { in: credentials.map((c) => c.code) }, providerCode: { not: providerCode } },
      select: { code: true, providerCode: true },
    });
    if (taken.length) {
      throw new ApiError("invalid_request", {
        message: `The credential code "${taken[0]!.code}" belongs to the provider "${taken[0]!.providerCode}"; choose another provider code or license_type_code`,
      });
    }
    const deleted = await tx.registryProvider.deleteMany({ where: { code: providerCode } });
    await tx.registryProvider.create({
      data: {
        code: providerCode,
        displayName,
        stateCode,
        issuingAuthority,
        requiredFields,
        sourceSha256: sha256,
        licenceCount,
        importedAt: now(),
      },
    });
    await tx.registryCredential.createMany({
      data: credentials.map(({ code, name, remoteCode }) => ({ code, providerCode, name, remoteCode })),
    });
    for (let i = 0; i < licenceCount; i += BATCH) {
      const batch = parsed.licences.slice(i, i + BATCH).map(stored);
      await runPreparedInTransaction(tx, insertLicences, {
        providerCode,
        credentialCodes: batch.map((l) => l.credentialCode),
        numberKeys: batch.map((l) => l.numberKey),
        lastNameKeys: batch.map((l) => l.lastNameKey),
        sealed: batch.map((l) => l.sealed),
      });
    }
    return deleted.count > 0;
  }, TRANSACTION_OPTIONS);

  return {
    provider_code: providerCode,
    state_code: stateCode,
    display_name: displayName,
    credentials: credentials
      .map((c) => ({ credential_code: c.code, credential_name: c.name, remote_code: c.remoteCode }))
      .sort((a, b) => (a.credential_code < b.credential_code ? -1 : 1)),
    licences: licenceCount,
    replaced,
    sha256,
  };
}

export type ImportedProviderSummary = {
  provider_code: string;
  display_name: string;
  state_code: string;
  issuing_authority: string;
  required_fields: LicenceInputField[];
  licences: number;
  credentials: { credential_code: string; credential_name: string; remote_code: string }[];
  imported_at: string;
  sha256: string;
};

/** Every imported registry, by state and provider code (the admin CLI's registry:list). */
export async function listImportedRegistries(): Promise<ImportedProviderSummary[]> {
  const prisma = await db();
  const providers = await prisma.registryProvider.findMany({
    orderBy: [{ stateCode: "asc" }, { code: "asc" }],
    include: { credentials: { orderBy: { code: "asc" } } },
  });
  return providers.map((p) => ({
    provider_code: p.code,
    display_name: p.displayName,
    state_code: p.stateCode,
    issuing_authority: p.issuingAuthority,
    required_fields: p.requiredFields as LicenceInputField[],
    licences: p.licenceCount,
    credentials: p.credentials.map((c) => ({ credential_code: c.code, credential_name: c.name, remote_code: c.remoteCode })),
    imported_at: p.importedAt.toISOString(),
    sha256: p.sourceSha256,
  }));
}
