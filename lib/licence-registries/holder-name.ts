import { distance } from "fastest-levenshtein";
import type { HolderName } from "./types";

/**
 * Whether a registry's licence holder is the person whose document was
 * verified (docs/licences.md, name match). Both names are
 * normalised the same way (normaliseNameTokens), then each part is compared:
 *   - last names are "same" when their words, joined, are equal
 *     ("Garcia-Lopez" = "Garcia Lopez" = "GARCIALOPEZ"); "uncertain" when
 *     they share a word of at least two letters that is not a particle
 *     ("Garcia-Lopez" and "Garcia"; but not "de Souza" and "de la Cruz") or
 *     are one edit apart at five letters or more ("Sampel", "Sample");
 *   - first names are "same" when their first words are equal (and more than
 *     an initial); "uncertain" when one is the other's initial ("J" and
 *     "Jordan"), both are the same initial, or they are one edit apart at
 *     five letters or more ("Daniela", "Daniel": a sibling or a namesake as
 *     often as a typo).
 * The holder is "same" when both parts are; "uncertain" (a person must look:
 * the check goes to review) when both are same or uncertain; "different"
 * otherwise, and always when either side lacks a first or a last name.
 */
export type NameMatch = "same" | "uncertain" | "different";

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

/** The first name's words: the given first name, else a full name's first word ("JORDAN SAMPLE"). */
function firstNameWords(name: HolderName): string[] {
  const first = normaliseNameTokens(name.first);
  return first.length ? first : normaliseNameTokens(name.full).slice(0, 1);
}

/** A person's name as documents give it: first, last and full name fields. */
export function holderOf(fields: { first_name: string | null; last_name: string | null; full_name: string | null }): HolderName {
  return { first: fields.first_name, last: fields.last_name, full: fields.full_name };
}

/**
 * The readings of a name's last name: the given last name; or, when there is
 * only a full name, its last word or more of the words after the first (a
 * double surname: "JOSE INVENTADO PRUEBA" may be "Inventado-Prueba").
 */
function lastNameReadings(name: HolderName): string[][] {
  const last = normaliseNameTokens(name.last);
  if (last.length) return [last];
  const rest = normaliseNameTokens(name.full).slice(1);
  return rest.map((_, i) => rest.slice(rest.length - 1 - i));
}

/**
 * Whether two words are at most one edit apart: a letter added, removed or
 * changed, or two neighbouring letters swapped ("sampel", "sample").
 */
export function withinOneEdit(a: string, b: string): boolean {
  if (distance(a, b) <= 1) return true;
  if (a.length !== b.length) return false;
  let i = 0;
  while (a[i] === b[i]) i++;
  return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}

/** Typo tolerance only for words of at least five letters: short names differ by one letter too often. */
const oneEditApart = (a: string, b: string) => Math.min(a.length, b.length) >= 5 && withinOneEdit(a, b);

const rank: Record<NameMatch, number> = { different: 0, uncertain: 1, same: 2 };
const weaker = (a: NameMatch, b: NameMatch): NameMatch => (rank[a] <= rank[b] ? a : b);
const stronger = (a: NameMatch, b: NameMatch): NameMatch => (rank[a] >= rank[b] ? a : b);

/** Two last names (normalised words). */
export function lastNameMatch(a: string[], b: string[]): NameMatch {
  if (!a.length || !b.length) return "different";
  const joinedA = a.join("");
  const joinedB = b.join("");
  if (joinedA === joinedB) return "same";
  if (oneEditApart(joinedA, joinedB)) return "uncertain";
  return a.some((t) => t.length >= 2 && !PARTICLES.has(t) && b.includes(t)) ? "uncertain" : "different";
}

/** Two first names (normalised words): their first words. */
export function firstNameMatch(a: string[], b: string[]): NameMatch {
  const x = a[0];
  const y = b[0];
  if (!x || !y) return "different";
  // The same initial on both sides names anyone with that initial.
  if (x === y) return x.length > 1 ? "same" : "uncertain";
  if (oneEditApart(x, y)) return "uncertain";
  return (x.length === 1 && y.startsWith(x)) || (y.length === 1 && x.startsWith(y)) ? "uncertain" : "different";
}

/** Whether the registry's holder is the verified person: see the top of this file. */
export function holderNameMatch(registry: HolderName, verified: HolderName): NameMatch {
  const first = firstNameMatch(firstNameWords(registry), firstNameWords(verified));
  if (first === "different") return "different";
  let last: NameMatch = "different";
  for (const a of lastNameReadings(registry)) {
    for (const b of lastNameReadings(verified)) last = stronger(last, lastNameMatch(a, b));
  }
  return weaker(first, last);
}
