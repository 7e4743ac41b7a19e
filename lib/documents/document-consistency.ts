import { distance } from "fastest-levenshtein";
import { isCompactDate, readFrontDates, type FrontDate } from "./front-dates";
import { hasConfidentText, nameKey, numberKey, runConfidence, wordRuns, type FrontLine, type PlacedWord } from "./front-text";

export type { FrontLine, FrontWord } from "./front-text";

/**
 * Does the front of a driving licence or ID card belong with its barcode or
 * MRZ? Pure: the OCR of the whole front runs in the vision worker
 * (workers/document-reader.mjs, op "front_text") and returns lines of words
 * with confidences; the barcode or MRZ gives the values.
 *
 * The comparison LOOKS FOR the machine-readable values in the front's text;
 * it never sorts the front's words into names, labels or states, so whatever
 * else a layout prints (its country, labels in two languages, restrictions)
 * cannot count against it.
 *
 * - name: each surname word and the first given name are looked for in runs
 *   of up to three consecutive words of a line, compared by `nameKey`
 *   (accents dropped; ICAO 9303 part 3 transliterations AE/OE/UE/AA of
 *   Ä/Ö/Ü/Å folded; apostrophes, hyphens and spaces ignored, so GARCIA<LOPEZ,
 *   D'ANGELO, LO<BIANCO and VAN<DEN<BERG are found however printed), in any
 *   order, with OCR tolerance (one error from 5 letters, two from 10). A name
 *   the barcode or MRZ cut short (TD1's 30 characters, AAMVA's DDE/DDF/DDG
 *   flags: `truncated`) matches the printed name it begins. Other given
 *   names, initials and suffixes are not required.
 * - dates: lib/documents/front-dates.ts reads the card's own format; a date at
 *   least BIRTH_MIN_YEARS before today can only be a date of birth, the
 *   later ones are the card's issue and expiry dates.
 * - document number: looked for by `numberKey` (case, spaces, dashes, dots
 *   and OCR's letter/digit confusions ignored) in runs of up to four words
 *   (613 902 475; P436-512-88-569-0), with one error tolerated from six
 *   characters; a label glued
 *   in front (DLS4829105) does not matter.
 *
 * Field agreement: `match`; `near` (a date one digit away: one digit can make
 * someone of age, so a person looks); `mismatch`, only on positive evidence:
 * a value read with confidence that contradicts (a date of birth that is
 * another date, an expiry that is another date, a number of the same shape
 * that differs in two or more characters on a front where another field was
 * read with confidence); `not_found` (the front was read but the value is not on it,
 * and nothing contradicts it); `unread`.
 *
 * A name that is not found never declines: without knowing the layout, the
 * words where the name should be cannot be told from labels, so a surname
 * that is not on the front goes to a person (review) instead.
 *
 * Verdict: `inconsistent` when any field is a mismatch (the evidence names
 * it); `consistent` when the name matches and the date of birth or the number
 * matches, with no date near or unconfirmed; `unreadable` when the front gave no confident text; otherwise
 * `uncertain` (review).
 */
export type ComparedField = "name" | "date_of_birth" | "document_number" | "expiry_date";
export type FieldAgreement = "match" | "near" | "mismatch" | "not_found" | "unread";
export type ConsistencyVerdict = "consistent" | "inconsistent" | "uncertain" | "unreadable";

export type Consistency = {
  verdict: ConsistencyVerdict;
  fields: Record<ComparedField, FieldAgreement>;
  /** The fields that contradict the barcode or MRZ (names of fields, never values). */
  mismatched: ComparedField[];
};

/** What the barcode or MRZ says, for the comparison. */
export type ZoneValues = {
  first_name: string | null;
  last_name: string | null;
  full_name?: string | null;
  date_of_birth: string | null;
  expiry_date: string | null;
  document_number: string | null;
  /** The machine-readable zone cut the names short (AAMVA DDE/DDF/DDG `T`; an MRZ name field filled to its end). */
  truncated?: { last_name: boolean; first_name: boolean };
};

/** Confidence (0..1) a value must be read with to contradict the barcode or MRZ (it can agree at any confidence). */
export const CONTRADICTING_CONFIDENCE = 0.8;
/** Confidence of a word for the front to count as read at all. */
export const READ_CONFIDENCE = 0.6;
/** A date at least this many years before today is a date of birth, not an issue or expiry date. */
export const BIRTH_MIN_YEARS = 12;

/** OCR errors tolerated in a name word or number of this many characters. */
function editsTolerated(length: number): number {
  return length >= 10 ? 2 : length >= 5 ? 1 : 0;
}

// ------------------------------------------------------------------ name

/** Is `word` (a name key) printed on the front: a run of words whose key is it (within tolerance), or begins with it when cut short? */
function nameFound(runs: readonly PlacedWord[][], word: string, cutShort: boolean): boolean {
  if (!word) return false;
  const tolerance = editsTolerated(word.length);
  return runs.some((run) => {
    const key = nameKey(run.map((w) => w.text).join(""));
    if (key === word) return true;
    if (cutShort && word.length >= 2 && key.startsWith(word)) return true;
    return tolerance > 0 && Math.abs(key.length - word.length) <= tolerance && distance(key, word) <= tolerance;
  });
}

/** The name's words: split at spaces, hyphens and MRZ fillers; suffixes and particles kept (they are printed too). */
const nameWords = (name: string | null | undefined) => (name ?? "").split(/[\s<,-]+/).map(nameKey).filter((w) => w.length > 0);

function compareName(lines: readonly FrontLine[], zone: ZoneValues): FieldAgreement {
  const surname = nameWords(zone.last_name);
  const given = nameWords(zone.first_name ?? zone.full_name?.split(" ")[0]);
  if (surname.length === 0 || given.length === 0) return "unread";
  if (!hasConfidentText(lines, READ_CONFIDENCE)) return "unread";
  const runs = wordRuns(lines, 3);
  const cut = zone.truncated ?? { last_name: false, first_name: false };
  // Each surname word (the last one may be cut short), or the whole surname as one word (GARCIALOPEZ).
  const surnameFound =
    surname.every((word, i) => nameFound(runs, word, cut.last_name && i === surname.length - 1)) || nameFound(runs, surname.join(""), cut.last_name);
  // An MRZ holds all given names in one field: when it is cut short, the cut may fall in the first.
  const firstFound = nameFound(runs, given[0]!, cut.first_name && given.length === 1);
  return surnameFound && firstFound ? "match" : "not_found";
}

// ------------------------------------------------------------------ number

/** Letter/digit shape of a number key ("A71529403" -> "LDDDDDDDD"). */
const shapeOf = (key: string) => key.replace(/[A-Z]/g, "L").replace(/[0-9]/g, "D");

function compareNumber(lines: readonly FrontLine[], zone: ZoneValues, anchored: boolean): FieldAgreement {
  const expected = zone.document_number ? numberKey(zone.document_number) : "";
  if (!expected) return "unread";
  const runs = wordRuns(lines, 6).filter((run) => /\d/.test(run.map((w) => w.text).join("")));
  if (runs.length === 0) return "unread";
  const tolerance = expected.length >= 6 ? 1 : 0;
  const keys = runs.map((run) => ({ key: numberKey(run.map((w) => w.text).join("")), confidence: runConfidence(run) }));
  const found = keys.some(({ key }) => key === expected || key.endsWith(expected) || (tolerance > 0 && Math.abs(key.length - expected.length) <= tolerance && distance(key, expected) <= tolerance));
  if (found) return "match";
  // A misread of the real number (two errors) is no evidence of another number.
  if (keys.some(({ key }) => key.length >= expected.length - 2 && distance(key, expected) <= 2)) return "not_found";
  // Evidence of another number: read with confidence, of the same letter/digit shape, on a front that is otherwise legible.
  const rawShape = shapeOf(zone.document_number!.toUpperCase().replace(/[^A-Z0-9]/g, ""));
  const contradicting = runs.some((run) => {
    const raw = run.map((w) => w.text).join("").toUpperCase().replace(/[^A-Z0-9]/g, "");
    return runConfidence(run) >= CONTRADICTING_CONFIDENCE && raw.length === rawShape.length && shapeOf(raw) === rawShape && !isCompactDate(raw);
  });
  return contradicting && anchored ? "mismatch" : "not_found";
}

// ------------------------------------------------------------------ dates

/** Dates one character apart in YYYYMMDD. */
function oneDigitApart(a: string, b: string): boolean {
  const [x, y] = [a.replace(/-/g, ""), b.replace(/-/g, "")];
  let differences = 0;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) differences++;
  return differences === 1;
}

function compareDate(candidates: readonly FrontDate[], expected: string | null): FieldAgreement {
  if (!expected || candidates.length === 0) return "unread";
  if (candidates.some((d) => d.readings.includes(expected))) return "match";
  if (candidates.some((d) => d.readings.some((r) => oneDigitApart(r, expected)))) return "near";
  return candidates.some((d) => !d.compact && d.confidence >= CONTRADICTING_CONFIDENCE) ? "mismatch" : "not_found";
}

function isoYearsBefore(today: Date, years: number): string {
  const day = new Date(today);
  day.setUTCFullYear(day.getUTCFullYear() - years);
  return day.toISOString().slice(0, 10);
}

/** Splits the front's dates into possible dates of birth and the card's own dates, and picks the expiry candidates. */
function datesByRole(dates: readonly FrontDate[], zone: ZoneValues, today: Date) {
  const cutoff = isoYearsBefore(today, BIRTH_MIN_YEARS);
  const todayIso = today.toISOString().slice(0, 10);
  const births = dates.filter((d) => d.readings.every((r) => r <= cutoff));
  const cardDates = dates.filter((d) => d.readings.every((r) => r > cutoff));
  // The expiry: any card date that is it; else the latest card date when there are two (issue, expiry) or it lies ahead.
  const latest = [...cardDates].sort((a, b) => a.readings[0]!.localeCompare(b.readings[0]!)).at(-1);
  const expiries =
    zone.expiry_date && cardDates.some((d) => d.readings.includes(zone.expiry_date!))
      ? cardDates
      : latest && (cardDates.length >= 2 || latest.readings.every((r) => r > todayIso))
        ? [latest]
        : [];
  return { births, expiries };
}

// ------------------------------------------------------------------ verdict

/** The front's OCR lines against the barcode's or MRZ's values. `today` tells dates of birth from the card's own dates. */
export function checkFrontConsistency(lines: readonly FrontLine[], zone: ZoneValues, today: Date): Consistency {
  const { births, expiries } = datesByRole(readFrontDates(lines), zone, today);
  const name = compareName(lines, zone);
  const dateOfBirth = compareDate(births, zone.date_of_birth);
  const expiry = compareDate(expiries, zone.expiry_date);
  // A number contradicts only on a front legible enough to have shown another field with confidence.
  const legible = name === "match" || [dateOfBirth, expiry].some((a) => a === "match" || a === "mismatch");
  const fields: Record<ComparedField, FieldAgreement> = {
    name,
    date_of_birth: dateOfBirth,
    document_number: compareNumber(lines, zone, legible),
    expiry_date: expiry,
  };
  const mismatched = (Object.keys(fields) as ComparedField[]).filter((f) => fields[f] === "mismatch");
  // A date printed that is not the barcode's or MRZ's, read without the confidence to contradict it, still leaves a doubt.
  const doubtfulDate = fields.date_of_birth === "not_found" || fields.expiry_date === "not_found";
  const verdict: ConsistencyVerdict = mismatched.length
    ? "inconsistent"
    : fields.name === "match" && (fields.date_of_birth === "match" || fields.document_number === "match") && !Object.values(fields).includes("near") && !doubtfulDate
      ? "consistent"
      : !hasConfidentText(lines, READ_CONFIDENCE)
        ? "unreadable"
        : "uncertain";
  return { verdict, fields, mismatched };
}
