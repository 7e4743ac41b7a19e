import { parse, type Details, type ParseResult } from "mrz";
import type { Sex } from "./aamva";

/**
 * Parses the machine-readable zone of a passport (TD3), visa-size card (TD2)
 * or ID card (TD1) with the `mrz` package (autocorrect on: O/0, I/1 ... in
 * fields that can only be digits or letters) into typed fields with ISO
 * dates. Two-digit years are resolved against `today`: a birth date is never
 * in the future, an expiry date at most 20 years ahead.
 */
export type MrzRecord = {
  format: "TD1" | "TD2" | "TD3";
  document_code: string | null;
  first_name: string | null;
  last_name: string | null;
  document_number: string | null;
  nationality: string | null;
  issuing_state: string | null;
  /** ISO dates (YYYY-MM-DD); null when the field is unreadable or only partly known. */
  date_of_birth: string | null;
  expiry_date: string | null;
  sex: Sex | null;
  /** Every check digit (document number, birth, expiry, optional, composite) matches. */
  check_digits_valid: boolean;
  /** Fields whose check digit does not match, e.g. ["birthDate", "composite"]. */
  failed_check_digits: string[];
  /** Fields the parser rejected, with its reason (invalid state code, month 13 ...). */
  invalid_fields: Array<{ field: string; error: string }>;
  /** Characters autocorrect changed (letter read where only a digit can be, and so on). */
  autocorrected: number;
};

/** The lines are not an MRZ of a supported format. */
export class MrzFormatError extends Error {
  override name = "MrzFormatError";
}

const SUPPORTED = new Set(["TD1", "TD2", "TD3"]);
const MRZ_LINE = /^[A-Z0-9<]+$/;

/**
 * YYMMDD to an ISO date. A birth date takes the latest century that does not
 * put it after `today`; an expiry date the latest that puts it no more than
 * 20 years after `today` (so an expired document stays in the past). Null
 * for a partial (`<<`) or impossible date.
 */
export function resolveMrzDate(yymmdd: string, kind: "birth" | "expiry", today: Date): string | null {
  if (!/^\d{6}$/.test(yymmdd)) return null;
  const yy = Number(yymmdd.slice(0, 2));
  const month = Number(yymmdd.slice(2, 4));
  const day = Number(yymmdd.slice(4, 6));
  const latest = today.getUTCFullYear() + (kind === "expiry" ? 20 : 0);
  let year = Math.floor(latest / 100) * 100 + yy;
  if (year > latest) year -= 100;
  const iso = (y: number) => {
    const date = new Date(Date.UTC(y, month - 1, day));
    return date.getUTCFullYear() === y && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? date.toISOString().slice(0, 10) : null;
  };
  const resolved = iso(year);
  // A birth date later this year than today belongs to the previous century.
  if (kind === "birth" && resolved && resolved > today.toISOString().slice(0, 10)) return iso(year - 100);
  return resolved;
}

function sexOf(value: string | null | undefined): Sex | null {
  if (value === "male") return "M";
  if (value === "female") return "F";
  if (value === "nonspecified") return "X";
  return null;
}

const CHECK_DIGIT = "CheckDigit";

function failedCheckDigits(details: Details[]): string[] {
  return details.filter((d) => d.field?.endsWith(CHECK_DIGIT) && !d.valid).map((d) => d.field!.slice(0, -CHECK_DIGIT.length));
}

/** Parses MRZ lines; throws MrzFormatError when they are not a TD1, TD2 or TD3 zone. */
export function parseMrz(lines: readonly string[], today: Date = new Date()): MrzRecord {
  // mrz 5.0.2's own character check is unanchored and lets any line through.
  const stray = lines.find((line) => !MRZ_LINE.test(line));
  if (stray !== undefined) throw new MrzFormatError(`MRZ lines may only hold A-Z, 0-9 and '<': ${JSON.stringify(stray)}`);
  let result: ParseResult;
  try {
    result = parse([...lines], { autocorrect: true });
  } catch (err) {
    throw new MrzFormatError(`Not a machine-readable zone: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!SUPPORTED.has(result.format)) throw new MrzFormatError(`MRZ format ${result.format} is not a passport or ID card`);
  const { fields, details } = result;
  const text = (value: string | null | undefined) => (value ? value : null);
  const failed = failedCheckDigits(details);
  return {
    format: result.format as MrzRecord["format"],
    document_code: text(fields.documentCode),
    first_name: text(fields.firstName),
    last_name: text(fields.lastName),
    document_number: text(result.documentNumber ?? fields.documentNumber),
    nationality: text(fields.nationality),
    issuing_state: text(fields.issuingState),
    date_of_birth: fields.birthDate ? resolveMrzDate(fields.birthDate, "birth", today) : null,
    expiry_date: fields.expirationDate ? resolveMrzDate(fields.expirationDate, "expiry", today) : null,
    sex: sexOf(fields.sex),
    check_digits_valid: failed.length === 0,
    failed_check_digits: failed,
    invalid_fields: details.filter((d) => !d.valid && d.field && !d.field.endsWith(CHECK_DIGIT)).map((d) => ({ field: d.field!, error: d.error ?? "invalid" })),
    autocorrected: details.reduce((sum, d) => sum + d.autocorrect.length, 0),
  };
}
