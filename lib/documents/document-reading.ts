import type { Sex } from "./aamva";
import type { Consistency } from "./document-consistency";

/** What readDocument returns: the fields read, how far to trust them, and the portrait. */
export type DocumentType = "passport" | "id_card" | "driving_licence";

/** Where the fields came from: the PDF417 barcode (AAMVA) or the machine-readable zone. */
export type DocumentSource = "pdf417" | "mrz";

export type DocumentFields = {
  first_name: string | null;
  last_name: string | null;
  /** Given names then surname, as printed ("JORDAN SAMPLE"). */
  full_name: string | null;
  /** ISO dates (YYYY-MM-DD). */
  date_of_birth: string | null;
  expiry_date: string | null;
  document_number: string | null;
  /** ISO 3166 alpha-3 code of the issuing country ("USA"); for an MRZ, its issuing state. */
  issuing_country: string | null;
  /** Sub-national issuer of a driving licence or ID card ("CA"); null for an MRZ. */
  issuing_state: string | null;
  /** Alpha-3 nationality (MRZ only). */
  nationality: string | null;
  sex: Sex | null;
};

export type DocumentChecks = {
  /** The barcode or MRZ was found and parsed (possibly with problems: see `problems`). */
  read: boolean;
  /** MRZ check digits all match; null for a PDF417 read (its own error correction guards it) or no read. */
  check_digits_valid: boolean | null;
  /** Expiry date known and not before `today`. */
  not_expired: boolean;
  portrait_found: boolean;
  /**
   * The front's printed fields agree with the barcode or MRZ (a driving
   * licence or ID card: see document-consistency.ts): false when one
   * disagrees, null when the front could not be read well enough, or for a
   * passport (its visual zone and MRZ are on the same page).
   */
  front_matches_back: boolean | null;
};

export type DocumentPortrait = {
  /** Face embedding of the document portrait (human faceres, 1024-d). */
  embedding: number[];
  score: number;
  /** [x, y, width, height] in pixels of the analysed image. */
  box: [number, number, number, number];
};

export type DocumentReading = {
  document_type: DocumentType;
  /** Null when nothing could be read. */
  source: DocumentSource | null;
  fields: DocumentFields;
  checks: DocumentChecks;
  /**
   * 0..1. 1.0 only for a PDF417 that parsed with every key field; for an MRZ
   * the OCR confidence, raised when all check digits match and capped at 0.5
   * when any does not. A partial or doubtful read is never rounded up: the
   * caller sends anything under its threshold, or with problems, to review.
   */
  confidence: number;
  portrait: DocumentPortrait | null;
  /**
   * The front against the barcode or MRZ (null for a passport, or when the
   * barcode/MRZ was not read). `fields` says how each compared field agreed;
   * no value is kept.
   */
  consistency: (Consistency & { variant: string | null }) | null;
  models: { faces: string | null; pdf417: string | null; ocr: string | null; front_ocr: string | null };
  timings_ms: { total: number; faces: number | null; pdf417: number | null; mrz: number | null; front_ocr: number | null };
  /** Machine-readable reasons not to trust the read ("mrz_check_digit_mismatch:birthDate", "expired", ...). */
  problems: string[];
};

export const EMPTY_FIELDS: DocumentFields = {
  first_name: null,
  last_name: null,
  full_name: null,
  date_of_birth: null,
  expiry_date: null,
  document_number: null,
  issuing_country: null,
  issuing_state: null,
  nationality: null,
  sex: null,
};

/** Fields without which a read is partial. */
export const KEY_FIELDS = ["first_name", "last_name", "date_of_birth", "expiry_date", "document_number"] as const satisfies ReadonlyArray<keyof DocumentFields>;

export function missingKeyFields(fields: DocumentFields): string[] {
  return KEY_FIELDS.filter((key) => !fields[key]);
}

/** "JORDAN", "SAMPLE" -> "JORDAN SAMPLE"; null when both are missing. */
export function fullName(...parts: Array<string | null>): string | null {
  const name = parts.filter(Boolean).join(" ");
  return name || null;
}

/** One attempt at reading a barcode or an MRZ off one image. */
export type ZoneAttempt = {
  source: DocumentSource;
  /** A barcode / MRZ-shaped text was found on the image. */
  found: boolean;
  /** ...and parsed into fields. */
  read: boolean;
  fields: DocumentFields;
  check_digits_valid: boolean | null;
  confidence: number;
  problems: string[];
  /** Null when nothing was found (the worker names its model only with a result). */
  model: string | null;
  ms: number;
  /** The zone cut the names short (AAMVA DDE/DDF/DDG `T`; an MRZ name field filled to its last character). */
  truncated?: { last_name: boolean; first_name: boolean };
};
