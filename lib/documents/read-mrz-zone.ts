import { readMrz } from "@/lib/vision/pool";
import { EMPTY_FIELDS, fullName, missingKeyFields, type DocumentFields, type ZoneAttempt } from "./document-reading";
import { MrzFormatError, parseMrz } from "./mrz";

/** OCR confidence under which a read is flagged even when its check digits match. */
const LOW_OCR_CONFIDENCE = 0.6;
/** Ceiling of the confidence of an MRZ whose check digits or fields do not all validate. */
const UNVERIFIED_MRZ_CEILING = 0.5;

/**
 * Check digits cover the document number and the dates but not the names:
 * matching digits lift the OCR confidence half-way to 1; a mismatch, an
 * invalid or a missing field halves it (never above 0.5).
 */
export function mrzConfidence(ocrConfidence: number, verified: boolean): number {
  const confidence = verified ? 0.5 + 0.5 * ocrConfidence : Math.min(UNVERIFIED_MRZ_CEILING, 0.5 * ocrConfidence);
  return Math.round(confidence * 1000) / 1000;
}

/**
 * Whether the MRZ's name field is filled to its last character: ICAO 9303
 * part 3 then cuts the names short (either of them), so the printed names may
 * only begin with the MRZ's. The field ends the last line of a TD1 (30
 * characters) and the first line of a TD2 or TD3.
 */
export function nameFieldFull(format: "TD1" | "TD2" | "TD3", lines: readonly string[]): boolean {
  const line = format === "TD1" ? lines[2] : lines[0];
  return line !== undefined && line.length > 0 && !line.endsWith("<");
}

/**
 * The machine-readable zone of a passport data page or ID card: OCR (worker
 * thread), then the `mrz` parser and its check digits.
 */
export async function readMrzZone(image: Uint8Array, today: Date): Promise<ZoneAttempt> {
  const started = performance.now();
  const ocr = await readMrz(image);
  const ms = Math.round(performance.now() - started);
  const attempt = { source: "mrz", found: false, read: false, fields: EMPTY_FIELDS, check_digits_valid: null, confidence: 0, model: ocr?.model ?? null, ms } as const;
  if (!ocr) return { ...attempt, problems: ["mrz_not_found"] };
  try {
    const record = parseMrz(ocr.lines, today);
    const fields: DocumentFields = {
      ...EMPTY_FIELDS,
      first_name: record.first_name,
      last_name: record.last_name,
      full_name: fullName(record.first_name, record.last_name),
      date_of_birth: record.date_of_birth,
      expiry_date: record.expiry_date,
      document_number: record.document_number,
      issuing_country: record.issuing_state,
      nationality: record.nationality,
      sex: record.sex,
    };
    const missing = missingKeyFields(fields);
    const problems = [
      ...record.failed_check_digits.map((field) => `mrz_check_digit_mismatch:${field}`),
      ...record.invalid_fields.map(({ field, error }) => `mrz_invalid_field:${field}: ${error}`),
      ...missing.map((field) => `missing_field:${field}`),
      ...(ocr.confidence < LOW_OCR_CONFIDENCE ? [`low_ocr_confidence:${ocr.confidence.toFixed(2)}`] : []),
    ];
    const verified = record.check_digits_valid && record.invalid_fields.length === 0 && missing.length === 0;
    return {
      ...attempt,
      found: true,
      read: true,
      fields,
      check_digits_valid: record.check_digits_valid,
      confidence: mrzConfidence(ocr.confidence, verified),
      truncated: { last_name: nameFieldFull(record.format, ocr.lines), first_name: nameFieldFull(record.format, ocr.lines) },
      problems,
    };
  } catch (err) {
    if (!(err instanceof MrzFormatError)) throw err;
    return { ...attempt, found: true, problems: [`mrz_malformed: ${err.message}`] };
  }
}
