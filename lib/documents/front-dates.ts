import { foldDigits, plainLetters, type FrontLine } from "./front-text";

/**
 * The dates printed on a card's front, in whatever format the card uses.
 * Pure.
 *
 * Numeric dates: day, month and a four-digit year separated by `/`, `.`, `-`
 * or spaces, year last (08/23/1979, 19.02.1974, 04 07 1962) or first
 * (1990/06/07, 1990-06-07). Whether a year-last card writes the month or the
 * day first is the card's own convention: the orders under which every
 * year-last date of the card is a calendar date are the card's (a card with
 * 19.02.1974 is day first); when the card does not tell, each date is read
 * both ways (every reading is a candidate, so a date is never misread by
 * guessing the order).
 *
 * Month names: `12 APR 1990`, `15 OKT/OCT 1993` (bilingual), `1990-JUN-07`,
 * `JUN 07, 1990`, in the month names and abbreviations of the many languages
 * Node's ICU data knows (MONTH_LOCALES), not a list fitted to some cards.
 *
 * OCR's letter/digit confusions are folded in the digits (O4/l2/199O).
 */
export type FrontDate = {
  /** Every calendar reading of the printed date (two when its day and month order is not known). */
  readings: string[];
  /** The confidence of its least confident word. */
  confidence: number;
  /**
   * Printed, or read, without separators (23111987: OCR may drop the spaces of
   * 23 11 1987): it can agree with a date, never contradict one, since a
   * number of eight digits may be no date at all.
   */
  compact: boolean;
};

/** Languages whose month names a card may print (Latin script): Europe, the Americas, and more. */
const MONTH_LOCALES = [
  "en", "fr", "de", "es", "it", "pt", "nl", "sv", "da", "nb", "nn", "fi", "is", "pl", "cs", "sk", "hu", "ro", "hr", "sl",
  "sr-Latn", "bs", "et", "lv", "lt", "tr", "ga", "cy", "ca", "eu", "gl", "mt", "sq", "id", "ms", "tl", "sw", "af", "lb", "fo",
];

/** Month name or abbreviation (upper case, accents and dots removed) -> months (1-12) it can name. */
function buildMonthNames(): Map<string, Set<number>> {
  const names = new Map<string, Set<number>>();
  const add = (name: string, month: number) => {
    const key = plainLetters(name).replace(/[^A-Z]/g, "");
    if (key.length < 3) return;
    if (!names.has(key)) names.set(key, new Set());
    names.get(key)!.add(month);
  };
  for (const locale of MONTH_LOCALES) {
    for (let month = 1; month <= 12; month++) {
      const day = new Date(Date.UTC(2021, month - 1, 15));
      for (const style of ["long", "short"] as const) {
        for (const context of [{ month: style }, { month: style, day: "numeric" }] as const) {
          let formatted: Intl.DateTimeFormatPart[];
          try {
            formatted = new Intl.DateTimeFormat(locale, { ...context, timeZone: "UTC" }).formatToParts(day);
          } catch {
            continue;
          }
          const name = formatted.find((p) => p.type === "month")?.value;
          if (!name || /\d/.test(name)) continue;
          add(name, month);
          // Cards abbreviate to three letters (OKT, MEI, DEZ) whatever the locale's own abbreviation.
          add(plainLetters(name).replace(/[^A-Z]/g, "").slice(0, 3), month);
        }
      }
    }
  }
  return names;
}

let monthNames: Map<string, Set<number>> | undefined;
/** Months a word can name (empty when it is no month name). */
export function monthsNamed(word: string): number[] {
  monthNames ??= buildMonthNames();
  return [...(monthNames.get(plainLetters(word).replace(/[^A-Z]/g, "")) ?? [])];
}

function isoDate(year: number, month: number, day: number): string | null {
  if (!Number.isInteger(year) || year < 1900 || year > 2100) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

const DIGITISH = "[0-9OQDILZSGB]";
const SEP = "\\s*[/.\\-]\\s*|\\s+";
const YEAR_LAST = new RegExp(`(?<![0-9A-Z])(${DIGITISH}{1,2})(?:${SEP})(${DIGITISH}{1,2})(?:${SEP})(${DIGITISH}{4})(?![0-9])`, "g");
const YEAR_FIRST = new RegExp(`(?<![0-9A-Z])(${DIGITISH}{4})(?:${SEP})(${DIGITISH}{1,2})(?:${SEP})(${DIGITISH}{1,2})(?![0-9])`, "g");
const MONTH_WORD = "([A-Z]{3,12})\\.?(?:\\s*/\\s*([A-Z]{3,12})\\.?)?";
const DAY_MONTH_YEAR = new RegExp(`(?<![0-9A-Z])(${DIGITISH}{1,2})(?:${SEP})${MONTH_WORD}(?:${SEP})(${DIGITISH}{4})(?![0-9])`, "g");
const YEAR_MONTH_DAY = new RegExp(`(?<![0-9A-Z])(${DIGITISH}{4})(?:${SEP})${MONTH_WORD}(?:${SEP})(${DIGITISH}{1,2})(?![0-9])`, "g");
const MONTH_DAY_YEAR = new RegExp(`(?<![A-Z])${MONTH_WORD}\\s+(${DIGITISH}{1,2}),?\\s+(${DIGITISH}{4})(?![0-9])`, "g");

type Spanned = { text: string; words: Array<{ confidence: number; start: number; end: number }> };

/** The line's words joined by single spaces, upper case without accents, with each word's span. */
function spanned(line: FrontLine): Spanned {
  let text = "";
  const words = line.words.map((w) => {
    if (text) text += " ";
    const start = text.length;
    text += plainLetters(w.text);
    return { confidence: w.confidence, start, end: text.length };
  });
  return { text, words };
}

const confidenceOf = (line: Spanned, start: number, end: number) => {
  const covered = line.words.filter((w) => w.start < end && w.end > start);
  return covered.length ? Math.min(...covered.map((w) => w.confidence)) : 0;
};

const num = (digits: string) => Number(foldDigits(digits));
const unique = (xs: Array<string | null>) => [...new Set(xs.filter((x): x is string => x !== null))];

type YearLast = { first: number; second: number; year: number; confidence: number; compact: boolean };

const COMPACT = /(?<![0-9A-Z])([0-9]{8})(?![0-9A-Z])/g;

/** Eight digits that read as a calendar date day or month first, or year first. */
export function isCompactDate(text: string): boolean {
  if (!/^[0-9]{8}$/.test(text)) return false;
  const n = (from: number, to: number) => Number(text.slice(from, to));
  return isoDate(n(4, 8), n(0, 2), n(2, 4)) !== null || isoDate(n(4, 8), n(2, 4), n(0, 2)) !== null || isoDate(n(0, 4), n(4, 6), n(6, 8)) !== null;
}

/** Every date printed on the front. */
export function readFrontDates(lines: readonly FrontLine[]): FrontDate[] {
  const dates: FrontDate[] = [];
  const yearLast: YearLast[] = [];
  for (const line of lines.map(spanned)) {
    const taken: Array<[number, number]> = [];
    const free = (start: number, end: number) => !taken.some(([s, e]) => start < e && end > s);
    const push = (m: RegExpMatchArray, readings: Array<string | null>) => {
      const start = m.index!;
      const end = start + m[0].length;
      const valid = unique(readings);
      if (!valid.length || !free(start, end)) return;
      taken.push([start, end]);
      dates.push({ readings: valid, confidence: confidenceOf(line, start, end), compact: false });
    };
    for (const m of line.text.matchAll(DAY_MONTH_YEAR)) {
      const months = [...monthsNamed(m[2]!), ...(m[3] ? monthsNamed(m[3]) : [])];
      push(m, months.map((month) => isoDate(num(m[4]!), month, num(m[1]!))));
    }
    for (const m of line.text.matchAll(YEAR_MONTH_DAY)) {
      const months = [...monthsNamed(m[2]!), ...(m[3] ? monthsNamed(m[3]) : [])];
      push(m, months.map((month) => isoDate(num(m[1]!), month, num(m[4]!))));
    }
    for (const m of line.text.matchAll(MONTH_DAY_YEAR)) {
      const months = [...monthsNamed(m[1]!), ...(m[2] ? monthsNamed(m[2]) : [])];
      push(m, months.map((month) => isoDate(num(m[4]!), month, num(m[3]!))));
    }
    for (const m of line.text.matchAll(YEAR_FIRST)) push(m, [isoDate(num(m[1]!), num(m[2]!), num(m[3]!))]);
    for (const m of line.text.matchAll(YEAR_LAST)) {
      const start = m.index!;
      const end = start + m[0].length;
      if (!free(start, end)) continue;
      const date = { first: num(m[1]!), second: num(m[2]!), year: num(m[3]!), confidence: confidenceOf(line, start, end), compact: false };
      if (isoDate(date.year, date.first, date.second) || isoDate(date.year, date.second, date.first)) {
        taken.push([start, end]);
        yearLast.push(date);
      }
    }
    for (const m of line.text.matchAll(COMPACT)) {
      const start = m.index!;
      const end = start + m[0].length;
      const digits = m[1]!;
      if (!free(start, end) || !isCompactDate(digits)) continue;
      taken.push([start, end]);
      const year = isoDate(Number(digits.slice(0, 4)), Number(digits.slice(4, 6)), Number(digits.slice(6, 8)));
      if (year) dates.push({ readings: [year], confidence: confidenceOf(line, start, end), compact: true });
      const first = Number(digits.slice(0, 2));
      const second = Number(digits.slice(2, 4));
      const lastYear = Number(digits.slice(4, 8));
      if (isoDate(lastYear, first, second) || isoDate(lastYear, second, first)) {
        yearLast.push({ first, second, year: lastYear, confidence: confidenceOf(line, start, end), compact: true });
      }
    }
  }
  // The card's order of day and month: those under which each of its year-last dates is a calendar date.
  const printed = yearLast.filter((d) => !d.compact);
  const monthFirst = printed.every((d) => isoDate(d.year, d.first, d.second));
  const dayFirst = printed.every((d) => isoDate(d.year, d.second, d.first));
  for (const d of yearLast) {
    const readings = unique([
      monthFirst || !dayFirst ? isoDate(d.year, d.first, d.second) : null,
      dayFirst || !monthFirst ? isoDate(d.year, d.second, d.first) : null,
    ]);
    if (readings.length) dates.push({ readings, confidence: d.confidence, compact: d.compact });
  }
  return dates;
}
