import type { ComparedField } from "@/lib/documents/document-consistency";
import type { DocumentReading } from "@/lib/documents/read-document";

/**
 * The id_verification check's status from a document reading (pure; the
 * document step and `npm run eval:documents` both use it):
 * - `failed` only on positive evidence: a front field read with confidence
 *   that contradicts the barcode or MRZ (`document_inconsistent`, the fields
 *   named in the evidence), an expired document, or check digits that do not
 *   add up on a confident read;
 * - `review` for what could not be read or compared with confidence;
 * - `passed` when read, valid, not expired and the front agrees with the back.
 */
const FIELD_NAMES: Record<ComparedField, string> = { name: "name", date_of_birth: "date of birth", document_number: "document number", expiry_date: "expiry date" };

export type DocumentVerdict = { status: "passed" | "failed" | "review"; error: { code: string; message: string } | null };

export function documentVerdict(reading: DocumentReading, minConfidence: number): DocumentVerdict {
  const doubtful = reading.problems.some((p) => p.startsWith("low_ocr_confidence"));
  const consistency = reading.consistency;
  if (consistency?.verdict === "inconsistent") {
    return { status: "failed", error: { code: "document_inconsistent", message: `The front of the document does not match its barcode or machine-readable zone: ${consistency.mismatched.map((f) => FIELD_NAMES[f]).join(", ")}` } };
  }
  if (!reading.checks.not_expired && reading.fields.expiry_date) {
    return { status: "failed", error: { code: "document_expired", message: `The document expired on ${reading.fields.expiry_date}` } };
  }
  if (reading.checks.check_digits_valid === false && !doubtful) {
    return { status: "failed", error: { code: "check_digits_invalid", message: "The document's check digits do not match its data" } };
  }
  if (reading.confidence < minConfidence || reading.checks.check_digits_valid === false || !reading.checks.not_expired) {
    return { status: "review", error: { code: "low_confidence_read", message: "The document could not be read with confidence; a person will review it" } };
  }
  if (reading.document_type !== "passport" && consistency?.verdict !== "consistent") {
    if (consistency && Object.values(consistency.fields).includes("near")) {
      return { status: "review", error: { code: "front_uncertain", message: "A date on the front of the document differs slightly from its barcode or machine-readable zone; a person will review it" } };
    }
    return consistency?.verdict === "uncertain"
      ? { status: "review", error: { code: "front_unconfirmed", message: "Not every field on the front of the document could be found to confirm its back; a person will review it" } }
      : { status: "review", error: { code: "front_unreadable", message: "The front of the document could not be read to compare it with its back; a person will review it" } };
  }
  return { status: "passed", error: null };
}
