import { normaliseNameTokens, withinOneEdit } from "@/lib/credentials/holder-name";
import { normaliseLicenceNumber } from "@/lib/credentials/normalise";
import type { DocumentFields } from "./document-reading";

/**
 * Does the front of a driving licence or ID card belong to the same person as
 * its barcode or MRZ? The front's printed fields (name, date of birth,
 * document number, expiry), as OCR read them, against the fields of the
 * machine-readable zone. Pure: the OCR runs in the vision worker
 * (workers/document-reader.mjs, op "front_text"), which returns lines of
 * words with confidences.
 *
 * Reading the front (label-free, so a label OCR dropped or misread does not
 * matter):
 * - dates: MM/DD/YYYY (US cards) or DD MMM YYYY (12 APR 1990), digit-like
 *   letters folded to digits first; only real calendar dates count. A date
 *   at least BIRTH_MIN_YEARS before today can only be a date of birth; the
 *   others are the card's issue and expiry dates (the latest of two, or one
 *   in the future, is its expiry).
 * - document numbers: words of 6+ letters and digits with at least 4 digits
 *   (not a date, no '/').
 * - names: words of letters only (a single digit folded to its letter), on
 *   lines without numbers (addresses), not the card's own words (titles,
 *   labels, months), read with confidence.
 *
 * Normalisation: names with normaliseNameTokens (lib/credentials/holder-name,
 * case, accents and punctuation ignored); numbers with normaliseLicenceNumber
 * (case, spaces, dashes, dots, slashes ignored); in numbers and dates the
 * usual OCR confusions are folded on both sides (O/Q/D -> 0, I/L -> 1,
 * Z -> 2, S -> 5, G -> 6, B -> 8), in names the reverse (0 -> O, 1 -> I,
 * 2 -> Z, 5 -> S, 6 -> G, 8 -> B).
 *
 * Tolerance: after that, one OCR error (a character added, dropped, changed
 * or two swapped) is tolerated in a name word or a number of at least
 * TOLERANCE_MIN_LENGTH characters; a number read with a label glued to it
 * ("DLS4829105") matches. Dates are never tolerated: a date one digit away
 * (1990 / 1996) is `near`, which sends the document to review (one digit can
 * make someone of age). A field the OCR did not read (or read without
 * confidence) is `unread`, never a mismatch.
 *
 * Verdict: `inconsistent` when any field disagrees beyond tolerance (the
 * first and last names must both be on the front); `uncertain` when a date
 * is one digit away; `consistent` when the name and the date of birth or the
 * number agree; else `unreadable`.
 */
export type FrontWord = { text: string; confidence: number };
export type FrontLine = { text: string; confidence: number; words: FrontWord[] };

export type FrontFields = {
  /** ISO dates with the confidence of their weakest word. */
  dates: Array<{ iso: string; confidence: number }>;
  numbers: Array<{ value: string; confidence: number }>;
  /** Normalised name words read with at least MIN_CONFIDENCE. */
  names: string[];
};

export type ComparedField = "name" | "date_of_birth" | "document_number" | "expiry_date";
export type FieldAgreement = "match" | "near" | "mismatch" | "unread";
export type ConsistencyVerdict = "consistent" | "inconsistent" | "uncertain" | "unreadable";

export type Consistency = {
  verdict: ConsistencyVerdict;
  fields: Record<ComparedField, FieldAgreement>;
  /** The fields that disagree beyond tolerance (names of fields, never values). */
  mismatched: ComparedField[];
};

/** Word confidence (0..1) under which a read cannot contradict the barcode or MRZ (it can still agree with it). */
export const MIN_CONFIDENCE = 0.6;
/** Shortest name word or number in which one OCR error is tolerated. */
export const TOLERANCE_MIN_LENGTH = 6;
/** A date at least this many years before today is a date of birth, not an issue or expiry date. */
export const BIRTH_MIN_YEARS = 12;

const TO_DIGIT: Record<string, string> = { O: "0", Q: "0", D: "0", I: "1", L: "1", Z: "2", S: "5", G: "6", B: "8" };
const TO_LETTER: Record<string, string> = { "0": "O", "1": "I", "2": "Z", "5": "S", "6": "G", "8": "B" };
const foldDigits = (s: string) => s.toUpperCase().replace(/[OQDILZSGB]/g, (c) => TO_DIGIT[c]!);
const foldLetters = (s: string) => s.replace(/[0125689]/g, (c) => TO_LETTER[c] ?? c);

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
const DIGITISH = "[0-9OQDILZSGB]";
const US_DATE = new RegExp(`(?<![0-9])(${DIGITISH}{2})\\s?[/.-]\\s?(${DIGITISH}{2})\\s?[/.-]\\s?(${DIGITISH}{4})(?![0-9])`, "g");
const TEXT_DATE = new RegExp(`(?<![0-9A-Z])(${DIGITISH}{1,2})\\s+(${MONTHS.join("|")})\\s+(${DIGITISH}{4})(?![0-9])`, "g");

/** Words a card prints besides the holder's name: titles, labels, months, states' words. */
const CARD_WORDS = new Set([
  "california", "driver", "drivers", "license", "licence", "usa", "dl", "exp", "ln", "fn", "dob", "sex", "hgt", "eyes", "bro", "blu", "grn",
  "hair", "iss", "class", "specimen", "identity", "card", "united", "states", "of", "america", "surname", "given", "names", "name",
  "date", "birth", "document", "no", "expiry", "expiration", "issue", "restrictions", "endorsements", "donor", "veteran", "real", "id",
  ...MONTHS.map((m) => m.toLowerCase()),
]);

function isoDate(year: number, month: number, day: number): string | null {
  if (year < 1900 || year > 2100) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

/** The line as its words joined by spaces, with each word's character span. */
function spans(line: FrontLine) {
  let text = "";
  const words = line.words.map((w) => {
    if (text) text += " ";
    const start = text.length;
    text += w.text.toUpperCase();
    return { ...w, start, end: text.length };
  });
  return { text, words };
}

function dateConfidence(words: Array<FrontWord & { start: number; end: number }>, start: number, end: number): number {
  const covered = words.filter((w) => w.start < end && w.end > start);
  return covered.length ? Math.min(...covered.map((w) => w.confidence)) : 0;
}

/** An all-digit token that reads as an MMDDYYYY or DDMMYYYY date (a date whose slashes OCR dropped). */
const looksLikeDate = (token: string) =>
  /^\d{8}$/.test(token) &&
  (isoDate(Number(token.slice(4)), Number(token.slice(0, 2)), Number(token.slice(2, 4))) !== null ||
    isoDate(Number(token.slice(4)), Number(token.slice(2, 4)), Number(token.slice(0, 2))) !== null);

/** The candidate fields printed on a front, from its OCR lines. */
export function extractFrontFields(lines: readonly FrontLine[]): FrontFields {
  const fields: FrontFields = { dates: [], numbers: [], names: [] };
  for (const line of lines) {
    const { text, words } = spans(line);
    for (const m of text.matchAll(US_DATE)) {
      const [mm, dd, yyyy] = [m[1]!, m[2]!, m[3]!].map((part) => Number(foldDigits(part)));
      const iso = isoDate(yyyy!, mm!, dd!);
      if (iso) fields.dates.push({ iso, confidence: dateConfidence(words, m.index, m.index + m[0].length) });
    }
    for (const m of text.matchAll(TEXT_DATE)) {
      const iso = isoDate(Number(foldDigits(m[3]!)), MONTHS.indexOf(m[2]!) + 1, Number(foldDigits(m[1]!)));
      if (iso) fields.dates.push({ iso, confidence: dateConfidence(words, m.index, m.index + m[0].length) });
    }
    let hasNumber = false;
    for (const word of words) {
      const token = word.text.toUpperCase().replace(/^[^A-Z0-9]+|[^A-Z0-9]+$/g, "").replace(/-/g, "");
      if (token.includes("/") || !/^[A-Z0-9]+$/.test(token)) continue;
      const digits = token.replace(/\D/g, "").length;
      if (digits >= 2) hasNumber = true;
      if (token.length >= TOLERANCE_MIN_LENGTH && digits >= 4 && !looksLikeDate(token)) fields.numbers.push({ value: token, confidence: word.confidence });
    }
    if (hasNumber) continue; // an address, a date, a number: no name on this line
    for (const word of words) {
      if (word.confidence < MIN_CONFIDENCE) continue;
      const raw = word.text.toUpperCase();
      if ((raw.match(/\d/g) ?? []).length > 1) continue;
      for (const token of normaliseNameTokens(foldLetters(raw))) {
        if (token.length >= 2 && !CARD_WORDS.has(token)) fields.names.push(token);
      }
    }
  }
  return fields;
}

/** Within the tolerance: equal, or one edit apart at TOLERANCE_MIN_LENGTH characters or more. */
function tolerated(a: string, b: string): boolean {
  if (a === b) return true;
  return Math.min(a.length, b.length) >= TOLERANCE_MIN_LENGTH && withinOneEdit(a, b);
}

/** Dates one character apart in YYYYMMDD. */
function oneDigitApart(a: string, b: string): boolean {
  const [x, y] = [a.replace(/-/g, ""), b.replace(/-/g, "")];
  let differences = 0;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) differences++;
  return differences === 1;
}

function compareName(front: FrontFields, zone: DocumentFields): FieldAgreement {
  const first = normaliseNameTokens(zone.first_name ?? zone.full_name?.split(" ")[0])[0];
  const last = normaliseNameTokens(zone.last_name);
  if (!first || last.length === 0 || front.names.length === 0) return "unread";
  const found = (token: string) => front.names.some((n) => tolerated(n, token));
  // A double surname may be printed as one word ("GARCIALOPEZ") or two.
  const lastFound = last.every(found) || found(last.join(""));
  return found(first) && lastFound ? "match" : "mismatch";
}

function compareNumber(front: FrontFields, zone: DocumentFields): FieldAgreement {
  if (!zone.document_number || front.numbers.length === 0) return "unread";
  const expected = foldDigits(normaliseLicenceNumber(zone.document_number));
  const agrees = (value: string) => {
    const read = foldDigits(normaliseLicenceNumber(value));
    return tolerated(read, expected) || (expected.length >= TOLERANCE_MIN_LENGTH && read.endsWith(expected));
  };
  if (front.numbers.some((n) => agrees(n.value))) return "match";
  return front.numbers.some((n) => n.confidence >= MIN_CONFIDENCE) ? "mismatch" : "unread";
}

function birthCutoff(today: Date): string {
  const cutoff = new Date(today);
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - BIRTH_MIN_YEARS);
  return cutoff.toISOString().slice(0, 10);
}

function compareDate(candidates: FrontFields["dates"], expected: string | null): FieldAgreement {
  if (!expected || candidates.length === 0) return "unread";
  if (candidates.some((d) => d.iso === expected)) return "match";
  if (candidates.some((d) => oneDigitApart(d.iso, expected))) return "near";
  return candidates.some((d) => d.confidence >= MIN_CONFIDENCE) ? "mismatch" : "unread";
}

/** The front's fields against the barcode's or MRZ's. `today` tells dates of birth from the card's own dates. */
export function compareFrontWithZone(front: FrontFields, zone: DocumentFields, today: Date): Consistency {
  const cutoff = birthCutoff(today);
  const todayIso = today.toISOString().slice(0, 10);
  const births = front.dates.filter((d) => d.iso <= cutoff);
  const cardDates = front.dates.filter((d) => d.iso > cutoff).sort((a, b) => a.iso.localeCompare(b.iso));
  // The expiry: the latest of the card's dates when there are two (issue, expiry) or it lies ahead; an
  // expiry printed anywhere among them also agrees.
  const latest = cardDates.at(-1);
  const expiryCandidates =
    zone.expiry_date && cardDates.some((d) => d.iso === zone.expiry_date)
      ? cardDates
      : latest && (cardDates.length >= 2 || latest.iso > todayIso)
        ? [latest]
        : [];

  const fields: Record<ComparedField, FieldAgreement> = {
    name: compareName(front, zone),
    date_of_birth: compareDate(births, zone.date_of_birth),
    document_number: compareNumber(front, zone),
    expiry_date: compareDate(expiryCandidates, zone.expiry_date),
  };
  const mismatched = (Object.keys(fields) as ComparedField[]).filter((f) => fields[f] === "mismatch");
  const verdict: ConsistencyVerdict = mismatched.length
    ? "inconsistent"
    : Object.values(fields).includes("near")
      ? "uncertain"
      : fields.name === "match" && (fields.date_of_birth === "match" || fields.document_number === "match")
        ? "consistent"
        : "unreadable";
  return { verdict, fields, mismatched };
}

/** extractFrontFields then compareFrontWithZone. */
export function checkFrontConsistency(lines: readonly FrontLine[], zone: DocumentFields, today: Date): Consistency {
  return compareFrontWithZone(extractFrontFields(lines), zone, today);
}
