import { parse as parseCsv, CsvError } from "csv-parse/sync";
import { z } from "zod";
import { normaliseNameTokens } from "../holder-name";
import { LICENCE_INPUT_RULES } from "../inputs";
import { licenceStatusOf, normaliseLicenceNumber } from "../normalise";
import type { RegistryRow } from "./registry-row";

/**
 * Reads a licence registry export (docs/licences.md "Importing a licence registry"):
 * CSV with a header row, or JSON (an array of objects), with the columns
 * below. Every row is validated; the result is either every row or every
 * error (up to MAX_REPORTED_ERRORS messages, each naming its CSV line or
 * JSON index), never a part of the file.
 */

export const REGISTRY_COLUMNS = [
  "license_number",
  "first_name",
  "last_name",
  "full_name",
  "license_type",
  "license_type_code",
  "status",
  "expires_on",
] as const;
type Column = (typeof REGISTRY_COLUMNS)[number];

const REQUIRED_COLUMNS: readonly Column[] = ["license_number", "first_name", "last_name", "license_type", "status"];

/**
 * 100 MB and 1,000,000 rows: an import holds the whole file in memory
 * (2,000,000 rows were measured at 2.2 GB peak and 257 s on the embedded
 * database). A bigger export is split into several providers (docs/licences.md
 * "Importing a licence registry").
 */
export const REGISTRY_FILE_LIMITS = { maxBytes: 100 * 1024 * 1024, maxRows: 1_000_000 };
export const MAX_REPORTED_ERRORS = 50;

export type RegistryFileFormat = "csv" | "json";

/** One valid row, with the credential it belongs to (`slug`, see ParsedCredential). */
export type ParsedLicence = Omit<RegistryRow, "state" | "issuing_authority"> & { slug: string };

/** A licence type of the file: its name, the board's code (remote_code) and the slug of the credential code. */
export type ParsedCredential = { license_type: string; remote_code: string; slug: string };

export type ParsedRegistryFile =
  | { ok: true; licences: ParsedLicence[]; credentials: ParsedCredential[] }
  | { ok: false; errors: string[]; errorCount: number };

/** A code as lower-case ASCII letters, digits and dashes ("Physician and Surgeon" -> "physician-and-surgeon"), at most 60 characters. */
export function slugOf(value: string): string {
  return value
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+/, "")
    .slice(0, 60)
    .replace(/-+$/, "");
}

/** Empty text is an absent value: optional columns may be left blank. */
const blankToUndefined = (v: unknown) => (v === null || (typeof v === "string" && v.trim() === "") ? undefined : v);

const requiredText = (max: number) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be text") })
      .trim()
      .max(max, `is longer than ${max} characters`),
  );
const optionalText = (max: number) =>
  z.preprocess(
    blankToUndefined,
    z.string({ error: "must be text" }).trim().max(max, `is longer than ${max} characters`).optional(),
  );

const RowSchema = z.object({
  license_number: z.preprocess(
    (v) => (typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? String(v) : blankToUndefined(v)),
    z
      .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be text") })
      .trim()
      // The same rule as the number a person types (lib/licence-registries/inputs.ts), so every imported licence can be found.
      .superRefine((v, ctx) => {
        const checked = LICENCE_INPUT_RULES.license_number.safeParse(v);
        if (!checked.success) for (const issue of checked.error.issues) ctx.addIssue({ code: "custom", message: issue.message });
      })
      .refine((v) => normaliseLicenceNumber(v) !== "", "has no letters or digits"),
  ),
  first_name: requiredText(100),
  last_name: requiredText(100).refine((v) => normaliseNameTokens(v).length > 0, "has no letters A-Z (accents are fine)"),
  full_name: optionalText(200),
  license_type: requiredText(120).transform((v) => v.replace(/\s+/g, " ")),
  license_type_code: optionalText(40),
  status: requiredText(100),
  expires_on: optionalText(40),
});

/** A real calendar date written YYYY-MM-DD. */
export function isIsoDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** Collects errors, keeping the first MAX_REPORTED_ERRORS messages and counting all. */
class Errors {
  readonly messages: string[] = [];
  count = 0;
  add(message: string) {
    this.count++;
    if (this.messages.length < MAX_REPORTED_ERRORS) this.messages.push(message);
  }
  result(): ParsedRegistryFile {
    const more = this.count - this.messages.length;
    return {
      ok: false,
      errors: more > 0 ? [...this.messages, `... and ${more} more error${more === 1 ? "" : "s"}`] : this.messages,
      errorCount: this.count,
    };
  }
}

class TooManyRows extends Error {}

/** Validates rows one by one (`where` names each: "line 7", "index 3") and checks the file as a whole. */
class RowCollector {
  readonly licences: ParsedLicence[] = [];
  private readonly credentials = new Map<string, ParsedCredential & { where: string }>();
  private readonly slugOwners = new Map<string, { license_type: string; where: string }>();
  private readonly seen = new Map<string, string>();
  rows = 0;

  constructor(
    private readonly errors: Errors,
    private readonly maxRows: number,
  ) {}

  /** Counts a row of the file, valid or not, against the limit. */
  count() {
    if (++this.rows > this.maxRows) throw new TooManyRows();
  }

  add(where: string, record: Record<string, unknown>) {
    this.count();
    const parsed = RowSchema.safeParse(record);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) this.errors.add(`${where}, ${issue.path.join(".") || "row"}: ${issue.message}`);
      return;
    }
    const row = parsed.data;
    let ok = true;
    const status = licenceStatusOf(row.status);
    if (status === null) {
      this.errors.add(`${where}, status: "${row.status}" is not a recognised licence status (docs/licences.md "Importing a licence registry" lists the words)`);
      ok = false;
    }
    if (row.expires_on !== undefined && !isIsoDate(row.expires_on)) {
      this.errors.add(`${where}, expires_on: "${row.expires_on}" is not a date written YYYY-MM-DD`);
      ok = false;
    }
    const credential = this.credentialOf(where, row.license_type, row.license_type_code);
    if (!credential || !ok || status === null) return;

    const key = `${credential.slug}\n${normaliseLicenceNumber(row.license_number)}`;
    const first = this.seen.get(key);
    if (first !== undefined) {
      this.errors.add(`${where}, license_number: "${row.license_number}" (${row.license_type}) is also on ${first}`);
      return;
    }
    this.seen.set(key, where);
    this.licences.push({
      license_number: row.license_number,
      first_name: row.first_name,
      last_name: row.last_name,
      full_name: row.full_name ?? null,
      license_type: row.license_type,
      registry_status: row.status,
      status,
      expires_on: row.expires_on ?? null,
      slug: credential.slug,
    });
  }

  /** The row's licence type: one code per type and one type per code across the file. */
  private credentialOf(where: string, licenseType: string, code: string | undefined): ParsedCredential | null {
    const remote = code ?? slugOf(licenseType);
    const known = this.credentials.get(licenseType);
    if (known) {
      if (known.remote_code === remote) return known;
      this.errors.add(
        `${where}, license_type_code: license_type "${licenseType}" has license_type_code "${code ?? ""}" here but "${known.remote_code}" on ${known.where}`,
      );
      return null;
    }
    const slug = slugOf(remote);
    if (slug === "") {
      this.errors.add(`${where}, license_type_code: "${remote}" has no letters or digits to make a credential code of`);
      return null;
    }
    const owner = this.slugOwners.get(slug);
    if (owner) {
      this.errors.add(
        `${where}, license_type: "${licenseType}" would have the same credential code ("${slug}") as "${owner.license_type}" on ${owner.where}; give them different license_type_code values`,
      );
      return null;
    }
    const credential = { license_type: licenseType, remote_code: remote, slug, where };
    this.credentials.set(licenseType, credential);
    this.slugOwners.set(slug, { license_type: licenseType, where });
    return credential;
  }

  result(): ParsedRegistryFile {
    if (this.errors.count > 0) return this.errors.result();
    if (this.licences.length === 0) {
      this.errors.add("the file has no licences");
      return this.errors.result();
    }
    return {
      ok: true,
      licences: this.licences,
      credentials: [...this.credentials.values()].map(({ license_type, remote_code, slug }) => ({ license_type, remote_code, slug })),
    };
  }
}

/** Column names compare trimmed and case-insensitive; an unknown or repeated column is an error. */
function columnOf(name: string): Column | null {
  const normalised = name.trim().toLowerCase();
  return (REGISTRY_COLUMNS as readonly string[]).includes(normalised) ? (normalised as Column) : null;
}

function readCsv(text: string, errors: Errors, rows: RowCollector) {
  let header: (Column | null)[] | null = null;
  let previousEnd = 0;
  let previousEmpty = 0;
  try {
    parseCsv(text, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      max_record_size: 64 * 1024,
      on_record: (record: string[], context) => {
        // The record's first line: after the previous record and any empty lines (a quoted field may span lines).
        const line = previousEnd + 1 + (context.empty_lines - previousEmpty);
        previousEnd = context.lines;
        previousEmpty = context.empty_lines;
        if (header === null) {
          const columns = record.map(columnOf);
          header = columns;
          const found = new Map<Column, number>();
          columns.forEach((column, i) => {
            const name = record[i]!;
            if (column === null) {
              errors.add(
                name.trim() === ""
                  ? `line ${line}: column ${i + 1} has no name`
                  : `line ${line}: unknown column "${name.trim()}" (the columns are ${REGISTRY_COLUMNS.join(", ")})`,
              );
            } else if (found.has(column)) {
              errors.add(`line ${line}: column "${column}" appears twice (columns ${found.get(column)! + 1} and ${i + 1})`);
            } else {
              found.set(column, i);
            }
          });
          for (const column of REQUIRED_COLUMNS) {
            if (!found.has(column)) errors.add(`line ${line}: the required column "${column}" is missing`);
          }
          // With a wrong header, every row would report the same problem: stop here.
          if (errors.count > 0) throw new HeaderRejected();
          return null;
        }
        if (record.every((field) => field.trim() === "")) return null;
        if (record.length !== header.length) {
          rows.count();
          errors.add(`line ${line}: ${record.length} fields, but the header has ${header.length}`);
          return null;
        }
        const values: Record<string, string> = {};
        header.forEach((column, i) => {
          values[column!] = record[i]!;
        });
        rows.add(`line ${line}`, values);
        return null;
      },
    });
  } catch (err) {
    if (err instanceof HeaderRejected || err instanceof TooManyRows) throw err;
    if (err instanceof CsvError) {
      errors.add(`line ${(err as CsvError & { lines?: number }).lines ?? "?"}: not valid CSV: ${err.message}`);
      return;
    }
    throw err;
  }
  if (header === null) errors.add("the file is empty (a CSV file starts with a header row)");
}

class HeaderRejected extends Error {}

function readJson(text: string, errors: Errors, rows: RowCollector) {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (err) {
    errors.add(`not valid JSON: ${(err as Error).message}`);
    return;
  }
  if (!Array.isArray(data)) {
    errors.add("a JSON registry file is an array of objects, one per licence");
    return;
  }
  data.forEach((item: unknown, index) => {
    const where = `index ${index}`;
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      rows.count();
      errors.add(`${where}: not an object`);
      return;
    }
    const values: Record<string, unknown> = {};
    let ok = true;
    for (const [name, value] of Object.entries(item)) {
      const column = columnOf(name);
      if (column === null) {
        errors.add(`${where}: unknown field "${name}" (the fields are ${REGISTRY_COLUMNS.join(", ")})`);
        ok = false;
      } else if (Object.hasOwn(values, column)) {
        errors.add(`${where}: field "${column}" appears twice`);
        ok = false;
      } else {
        values[column] = value;
      }
    }
    if (ok) rows.add(where, values);
    else rows.count();
  });
}

/**
 * Parses a registry file's bytes. Limits (REGISTRY_FILE_LIMITS): the file's
 * size and its number of rows; the text must be UTF-8.
 */
export function parseRegistryFile(
  bytes: Uint8Array,
  format: RegistryFileFormat,
  limits: { maxBytes: number; maxRows: number } = REGISTRY_FILE_LIMITS,
): ParsedRegistryFile {
  const errors = new Errors();
  if (bytes.byteLength > limits.maxBytes) {
    errors.add(`the file is ${bytes.byteLength} bytes; the limit is ${limits.maxBytes} (split the export into several files, each under its own provider code)`);
    return errors.result();
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    errors.add("the file is not UTF-8 text (re-export it as UTF-8)");
    return errors.result();
  }
  const rows = new RowCollector(errors, limits.maxRows);
  try {
    if (format === "csv") readCsv(text, errors, rows);
    else readJson(text, errors, rows);
  } catch (err) {
    if (err instanceof HeaderRejected) return errors.result();
    if (err instanceof TooManyRows) {
      const limited = new Errors();
      limited.add(`the file has more than ${limits.maxRows} rows, the limit (split the export into several files, each under its own provider code)`);
      return limited.result();
    }
    throw err;
  }
  return rows.result();
}

export function formatOfPath(file: string): RegistryFileFormat | null {
  const lower = file.toLowerCase();
  if (lower.endsWith(".csv")) return "csv";
  if (lower.endsWith(".json")) return "json";
  return null;
}
