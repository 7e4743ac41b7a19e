import { distance } from "fastest-levenshtein";
import type { HolderName } from "./types";

/**
 * Whether a registry's licence holder is the person whose document was
 * verified (README "Professional licences", name matching). Both names are
 * normalised the same way (normaliseNameTokens), then:
 *   - last names match when, normalised, they are equal, share a token of at
 *     least two letters that is not a particle (double and hyphenated
 *     surnames: "Garcia-Lopez" and "Garcia"; but not "de Souza" and "de la
 *     Cruz"), or differ by one edit when at least five letters long;
 *   - first names match when their first tokens are equal, one is the
 *     other's initial ("J" and "Jordan"), or they differ by one edit when at
 *     least five letters long.
 * Both must match. A name the document or the registry lacks never matches.
 */

/** Titles, generational suffixes and degrees that registries and documents add or drop. */
const IGNORED_TOKENS = new Set([
  "dr", "mr", "mrs", "ms", "miss", "prof", "jr", "sr", "ii", "iii", "iv", "md", "do", "dds", "dmd", "rn", "np", "pa", "phd",
  "pharmd", "lpn", "aprn", "esq",
]);

/** Surname particles: a shared particle alone ("de", "van", "al") does not make two surnames the same. */
const PARTICLES = new Set([
  "de", "del", "della", "der", "den", "di", "da", "das", "dos", "do", "du", "la", "le", "les", "van", "von", "ten", "ter",
  "st", "al", "el", "bin", "ibn", "mc", "mac",
]);

/** Latin letters that NFKD does not decompose, as ASCII ("Søren" -> "soren", "Strauß" -> "strauss"). */
const LETTERS: Record<string, string> = { ß: "ss", æ: "ae", ø: "o", œ: "oe", ł: "l", đ: "d", ð: "d", þ: "th", ı: "i", ħ: "h" };

/**
 * Lower-case ASCII tokens: accents removed (NFKD), apostrophes dropped
 * ("O'Brien" -> "obrien"), other punctuation splits. Titles, suffixes and
 * degrees are dropped unless nothing else is left (the surname "Do").
 */
export function normaliseNameTokens(name: string | null | undefined): string[] {
  if (!name) return [];
  const tokens = name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[ßæøœłđðþıħ]/g, (c) => LETTERS[c]!)
    .replace(/['\u2019`]/g, "")
    .split(/[^a-z]+/)
    .filter((t) => t !== "");
  const kept = tokens.filter((t) => !IGNORED_TOKENS.has(t));
  return kept.length ? kept : tokens;
}

/** The name as one normalised string (tokens joined by a space): the form the registry index hashes. */
export function normalisedName(name: string | null | undefined): string {
  return normaliseNameTokens(name).join(" ");
}

/** First and last name, splitting a full name ("JORDAN SAMPLE": first token, last token) when the parts are missing. */
export function nameParts(name: HolderName): { first: string[]; last: string[] } {
  const full = normaliseNameTokens(name.full);
  const first = normaliseNameTokens(name.first);
  const last = normaliseNameTokens(name.last);
  return {
    first: first.length ? first : full.slice(0, 1),
    last: last.length ? last : full.length > 1 ? full.slice(-1) : [],
  };
}

const oneEditApart = (a: string, b: string) => Math.min(a.length, b.length) >= 5 && distance(a, b) <= 1;

export function lastNamesMatch(a: string[], b: string[]): boolean {
  if (!a.length || !b.length) return false;
  const joinedA = a.join("");
  const joinedB = b.join("");
  if (joinedA === joinedB || oneEditApart(joinedA, joinedB)) return true;
  return a.some((t) => t.length >= 2 && !PARTICLES.has(t) && b.includes(t));
}

export function firstNamesMatch(a: string[], b: string[]): boolean {
  const x = a[0];
  const y = b[0];
  if (!x || !y) return false;
  if (x === y || oneEditApart(x, y)) return true;
  return (x.length === 1 && y.startsWith(x)) || (y.length === 1 && x.startsWith(y));
}

export function holderNameMatches(registry: HolderName, verified: HolderName): boolean {
  const r = nameParts(registry);
  const v = nameParts(verified);
  return lastNamesMatch(r.last, v.last) && firstNamesMatch(r.first, v.first);
}
