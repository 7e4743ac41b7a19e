/**
 * The OCR text of a card's front, in the forms the cross-check with the
 * barcode or MRZ searches (lib/documents/document-consistency.ts). Pure.
 *
 * Nothing here decides what a word IS (a name, a label, a state): the
 * comparison looks for the machine-readable values in the text, so words a
 * layout prints besides them never count.
 */
export type FrontWord = { text: string; confidence: number };
export type FrontLine = { text: string; confidence: number; words: FrontWord[] };

/** Latin letters that NFKD does not decompose, as ICAO 9303 part 3 writes them. */
const UNDECOMPOSED: Record<string, string> = { ß: "SS", ẞ: "SS", Æ: "AE", Ø: "OE", Œ: "OE", Ł: "L", Đ: "D", Ð: "D", Þ: "TH", Ħ: "H", İ: "I", ı: "I" };

/** Upper case, accents removed (É -> E, Ñ -> N), letters NFKD keeps whole spelled out (Ø -> OE, ß -> SS). */
export function plainLetters(text: string): string {
  return text
    .toUpperCase()
    .replace(/[ßẞÆØŒŁĐÐÞĦİı]/g, (c) => UNDECOMPOSED[c] ?? c)
    .normalize("NFKD")
    .replace(/\p{M}/gu, "");
}

/** Digits OCR reads in place of letters in a word of letters (J0RDAN), and back. */
const DIGIT_AS_LETTER: Record<string, string> = { "0": "O", "1": "I", "2": "Z", "5": "S", "6": "G", "8": "B" };
const LETTER_AS_DIGIT: Record<string, string> = { O: "0", Q: "0", D: "0", I: "1", L: "1", Z: "2", S: "5", G: "6", B: "8" };

/** In numbers and dates: letters OCR reads in place of digits folded to those digits (S48291O5 -> 548291O5 -> 54829105). */
export function foldDigits(text: string): string {
  return text.toUpperCase().replace(/[OQDILZSGB]/g, (c) => LETTER_AS_DIGIT[c]!);
}

/**
 * The comparison key of a name or a name word: letters only, accents
 * dropped, and the spellings ICAO 9303 part 3 allows for one letter made one:
 * AE/Ä, OE/Ö/Ø, UE/Ü, AA/Å all become the single vowel, so KOEHLER (MRZ),
 * KÖHLER (printed) and KOHLER (OCR that lost the umlaut) are one key, as are
 * BRAATEN and BRÅTEN. Apostrophes, hyphens and spaces go (D'ANGELO = DANGELO).
 */
export function nameKey(text: string): string {
  return plainLetters(text)
    .replace(/[0125689]/g, (c) => DIGIT_AS_LETTER[c] ?? c)
    .replace(/[^A-Z]/g, "")
    .replace(/AE|OE|UE|AA/g, (pair) => pair[0]!);
}

/** The comparison key of a document number: letters and digits only, OCR's letter/digit confusions folded (P436-512-88 = P43651288). */
export function numberKey(text: string): string {
  return foldDigits(plainLetters(text).replace(/[^A-Z0-9]/g, ""));
}

/** A word of the front, with where it is: its line and its place on the line. */
export type PlacedWord = { text: string; confidence: number; line: number; index: number };

/** Where OCR glues what the card prints apart: GAGNON-LEBLANC,NATHALIE; G4270-31586-60530; SMITH/JONES. */
const GLUE = /[,;:/\\()[\]\-\u2013\u2014]+/;

/**
 * Runs of up to `maxWords` consecutive words of one line (an OCR word split
 * where punctuation glued parts together), for values a card prints in parts
 * ("613 902 475", "VAN DEN BERG", "GAGNON-LEBLANC, NATHALIE").
 */
export function wordRuns(lines: readonly FrontLine[], maxWords: number): PlacedWord[][] {
  const runs: PlacedWord[][] = [];
  lines.forEach((line, lineIndex) => {
    const words = line.words.flatMap((w) => w.text.split(GLUE).filter((part) => part !== "").map((text) => ({ text, confidence: w.confidence }))).map((w, index) => ({ ...w, line: lineIndex, index }));
    for (let start = 0; start < words.length; start++) {
      for (let end = start + 1; end <= Math.min(words.length, start + maxWords); end++) runs.push(words.slice(start, end));
    }
  });
  return runs;
}

/** The confidence of a run: that of its least confident word. */
export const runConfidence = (run: readonly PlacedWord[]) => Math.min(...run.map((w) => w.confidence));

/** Whether any word of the front was read with at least `confidence`. */
export const hasConfidentText = (lines: readonly FrontLine[], confidence: number) => lines.some((l) => l.words.some((w) => w.confidence >= confidence && /[\p{L}\p{N}]{2}/u.test(w.text)));
