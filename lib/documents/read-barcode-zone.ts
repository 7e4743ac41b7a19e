import { readPdf417 } from "@/lib/vision/pool";
import { AamvaFormatError, parseAamva } from "./aamva";
import { EMPTY_FIELDS, fullName, missingKeyFields, type DocumentFields, type ZoneAttempt } from "./document-reading";

/** Confidence of a barcode whose AAMVA record parsed but lacks some key fields. */
const PARTIAL_BARCODE_CONFIDENCE = 0.5;

const cutShort = (indicator: string | undefined) => indicator?.toUpperCase() === "T" || indicator?.toUpperCase() === "U";

/**
 * The PDF417 side of a driving licence or ID card: the barcode (worker
 * thread), then its AAMVA fields. Confidence 1 only when every key field is
 * there; the barcode's own error correction stands in for check digits.
 */
export async function readBarcodeZone(image: Uint8Array): Promise<ZoneAttempt> {
  const started = performance.now();
  const barcode = await readPdf417(image);
  const ms = Math.round(performance.now() - started);
  const attempt = { source: "pdf417", found: false, read: false, fields: EMPTY_FIELDS, check_digits_valid: null, confidence: 0, model: barcode?.model ?? null, ms } as const;
  if (!barcode) return { ...attempt, problems: ["barcode_not_found"] };
  try {
    const record = parseAamva(barcode.text);
    const fields: DocumentFields = {
      ...EMPTY_FIELDS,
      first_name: record.first_name,
      last_name: record.last_name,
      full_name: fullName(record.first_name, record.middle_name, record.last_name),
      date_of_birth: record.date_of_birth,
      expiry_date: record.expiry_date,
      document_number: record.document_number,
      issuing_country: record.country,
      issuing_state: record.state,
      sex: record.sex,
    };
    const missing = missingKeyFields(fields);
    return {
      ...attempt,
      found: true,
      read: true,
      fields,
      confidence: missing.length === 0 ? 1 : PARTIAL_BARCODE_CONFIDENCE,
      // AAMVA truncation indicators: T = truncated, N = not, U = unknown (counted as possibly truncated).
      truncated: { last_name: cutShort(record.elements.DDE), first_name: cutShort(record.elements.DDF) },
      problems: missing.map((field) => `missing_field:${field}`),
    };
  } catch (err) {
    if (!(err instanceof AamvaFormatError)) throw err;
    return { ...attempt, found: true, problems: [`barcode_not_aamva: ${err.message}`] };
  }
}
