import { inspectImage } from "@/lib/images/inspect-image";
import { EMPTY_FIELDS, type DocumentReading, type DocumentType, type ZoneAttempt } from "./document-reading";
import type { ComparedField, Consistency } from "./document-consistency";
import { findPortrait } from "./find-portrait";
import { frontConsistency, readFront, type FrontRead } from "./read-front";
import { readBarcodeZone } from "./read-barcode-zone";
import { readMrzZone } from "./read-mrz-zone";

export type { DocumentChecks, DocumentFields, DocumentPortrait, DocumentReading, DocumentSource, DocumentType } from "./document-reading";

export type ReadDocumentInput = {
  documentType: DocumentType;
  /** The side with the portrait (a passport's data page). */
  front: Uint8Array;
  /** The side with the PDF417 barcode or the TD1 MRZ (driving licence, ID card). */
  back?: Uint8Array;
  /** The day expiry is judged against (and two-digit MRZ years resolved around); defaults to now. */
  today?: Date;
};

/**
 * Where each document keeps its machine-readable data: a passport's MRZ is on
 * its data page (front); a US/Canadian driving licence has a PDF417 barcode
 * on the back; an ID card has a PDF417 or a TD1 MRZ on the back (barcode
 * first, MRZ when no barcode is found). Without a back, the front is searched.
 * Returns every attempt, the one to report last.
 */
async function readMachineZone(input: ReadDocumentInput, today: Date): Promise<ZoneAttempt[]> {
  if (input.documentType === "passport") return [await readMrzZone(input.front, today)];
  const side = input.back ?? input.front;
  const barcode = await readBarcodeZone(side);
  if (barcode.found || input.documentType === "driving_licence") return [barcode];
  return [barcode, await readMrzZone(side, today)];
}

const comparedFields = (consistency: Consistency) => Object.keys(consistency.fields) as ComparedField[];
const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const timing = (attempts: ZoneAttempt[], source: ZoneAttempt["source"]) => attempts.find((a) => a.source === source)?.ms ?? null;
const model = (attempts: ZoneAttempt[], source: ZoneAttempt["source"]) => attempts.find((a) => a.source === source)?.model ?? null;

/**
 * Reads an identity document: the fields of its barcode or MRZ (never
 * guessed: a partial or doubtful read comes back with a low confidence and
 * `problems`, for the caller to send to manual review), whether it has
 * expired, the portrait's face embedding and, for a driving licence or ID
 * card, whether the front's printed fields agree with the barcode or MRZ
 * (`consistency`). Bytes that are not an image are 422 `invalid_image`. The
 * models run in the vision worker pool.
 */
export async function readDocument(input: ReadDocumentInput): Promise<DocumentReading> {
  const started = performance.now();
  const today = input.today ?? new Date();
  await inspectImage(input.front, "front");
  if (input.back) await inspectImage(input.back, "back");

  // A licence's or ID card's front is read too, to be compared with its back (a passport's visual zone and MRZ share one page).
  const compareFront = input.documentType !== "passport" && input.back !== undefined;
  const noFront: Promise<FrontRead | null> = Promise.resolve(null);
  const [attempts, portrait, front] = await Promise.all([readMachineZone(input, today), findPortrait(input.front), compareFront ? readFront(input.front) : noFront]);
  const zone = attempts.at(-1)!;
  const fields = zone.read ? zone.fields : EMPTY_FIELDS;
  const expiry = fields.expiry_date;
  const notExpired = expiry !== null && expiry >= isoDay(today);
  const consistency = front && zone.read ? frontConsistency(front, { ...fields, truncated: zone.truncated }, today) : null;

  const problems = [
    ...(input.documentType !== "passport" && !input.back ? ["back_missing"] : []),
    ...(zone.read ? zone.problems : attempts.flatMap((a) => a.problems)),
    ...(zone.read && expiry === null ? ["expiry_unknown"] : []),
    ...(expiry !== null && !notExpired ? ["expired"] : []),
    ...(portrait.problem ? [portrait.problem] : []),
    ...(front?.error ? ["front_ocr_failed"] : []),
    ...(consistency?.verdict === "inconsistent" ? consistency.mismatched.map((field) => `front_mismatch:${field}`) : []),
    ...(consistency?.verdict === "uncertain" ? comparedFields(consistency).filter((f) => consistency.fields[f] === "near").map((field) => `front_uncertain:${field}`) : []),
    ...(consistency?.verdict === "uncertain" ? comparedFields(consistency).filter((f) => consistency.fields[f] === "not_found").map((field) => `front_not_found:${field}`) : []),
    ...(consistency?.verdict === "unreadable" ? ["front_unreadable"] : []),
  ];

  return {
    document_type: input.documentType,
    source: zone.read ? zone.source : null,
    fields,
    checks: {
      read: zone.read,
      check_digits_valid: zone.read ? zone.check_digits_valid : null,
      not_expired: notExpired,
      portrait_found: portrait.portrait !== null,
      front_matches_back: consistency?.verdict === "consistent" ? true : consistency?.verdict === "inconsistent" ? false : null,
    },
    confidence: zone.read ? zone.confidence : 0,
    portrait: portrait.portrait,
    consistency,
    models: { faces: portrait.model, pdf417: model(attempts, "pdf417"), ocr: model(attempts, "mrz"), front_ocr: front?.model ?? null },
    timings_ms: { total: Math.round(performance.now() - started), faces: portrait.ms, pdf417: timing(attempts, "pdf417"), mrz: timing(attempts, "mrz"), front_ocr: front?.ms ?? null },
    problems,
  };
}
