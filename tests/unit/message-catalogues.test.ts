import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import { PERSON_LOCALES } from "@/lib/i18n/locales";

/**
 * The person-facing catalogues (messages/<locale>.json): every language has
 * exactly the English catalogue's keys, every message is valid ICU with
 * the same arguments, every plural has every form the language's grammar
 * uses (CLDR, through Intl.PluralRules), and every message formats.
 */
type Tree = { [key: string]: string | Tree };
const root = path.resolve(import.meta.dirname, "..", "..");
const read = (locale: string): Tree => JSON.parse(readFileSync(path.join(root, "messages", `${locale}.json`), "utf8"));

function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === "string") out.set(prefix + key, value);
    else for (const [k, v] of flatten(value, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}

type Shape = { args: Set<string>; plurals: Array<{ arg: string; forms: string[] }> };
function shapeOf(message: string): Shape {
  const shape: Shape = { args: new Set(), plurals: [] };
  const walk = (elements: MessageFormatElement[]) => {
    for (const e of elements) {
      if (e.type === TYPE.argument || e.type === TYPE.number || e.type === TYPE.date || e.type === TYPE.time) shape.args.add(e.value);
      if (e.type === TYPE.select || e.type === TYPE.plural) {
        shape.args.add(e.value);
        if (e.type === TYPE.plural) shape.plurals.push({ arg: e.value, forms: Object.keys(e.options) });
        for (const option of Object.values(e.options)) walk(option.value);
      }
      if (e.type === TYPE.tag) walk(e.children);
    }
  };
  walk(parse(message));
  return shape;
}

const english = flatten(read("en"));
const sample = (arg: string) => (["n", "step", "total", "done", "i", "seconds", "left"].includes(arg) ? 2 : `«${arg}»`);

describe("the person-facing message catalogues", () => {
  it("English has messages, and every message of it is valid ICU", () => {
    expect(english.size).toBeGreaterThan(250);
    for (const [key, message] of english) expect(() => shapeOf(message), key).not.toThrow();
  });

  it.each(PERSON_LOCALES.filter((l) => l !== "en"))("%s has every English key and no other, with the same arguments and its language's plural forms", (locale) => {
    expect(existsSync(path.join(root, "messages", `${locale}.json`)), `messages/${locale}.json`).toBe(true);
    const catalogue = flatten(read(locale));
    expect([...catalogue.keys()].filter((k) => !english.has(k)), "keys English does not have").toEqual([]);
    expect([...english.keys()].filter((k) => !catalogue.has(k)), "keys missing").toEqual([]);
    const forms = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
    const problems: string[] = [];
    for (const [key, message] of catalogue) {
      let shape: Shape;
      try {
        shape = shapeOf(message);
      } catch (err) {
        problems.push(`${key}: not valid ICU (${(err as Error).message})`);
        continue;
      }
      const expected = [...shapeOf(english.get(key)!).args].sort().join(", ");
      const actual = [...shape.args].sort().join(", ");
      if (actual !== expected) problems.push(`${key}: arguments {${actual}} instead of {${expected}}`);
      for (const plural of shape.plurals) {
        const missing = forms.filter((f) => !plural.forms.includes(f));
        if (missing.length > 0) problems.push(`${key}: the plural of ${plural.arg} lacks ${missing.join(", ")}`);
      }
      if (/undefined|\bTODO\b/.test(message)) problems.push(`${key}: ${message}`);
    }
    expect(problems).toEqual([]);
  });

  it.each(PERSON_LOCALES)("every %s message formats with its arguments, with no error and no leftover braces", (locale) => {
    const errors: string[] = [];
    const t = createTranslator({ locale, messages: read(locale) as never, onError: (e) => errors.push(e.message) });
    for (const [key, message] of flatten(read(locale))) {
      const values = Object.fromEntries([...shapeOf(message).args].map((a) => [a, sample(a)]));
      const text = (t as unknown as (k: string, v: object) => string)(key, values);
      expect(text, key).not.toMatch(/[{}]/);
    }
    expect(errors).toEqual([]);
  });
});
