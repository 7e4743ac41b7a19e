/**
 * The languages a person can verify in (the hosted flow; later the sign-in,
 * consent, account and activation pages and their emails). Each has a
 * catalogue `messages/<locale>.json` with every key of `messages/en.json`
 * (tests/unit/message-catalogues.test.ts). Developer-facing text (the
 * portal, API error messages) stays English.
 */
export const PERSON_LOCALES = ["en", "es", "fr", "de", "it", "pt-BR", "nl", "pl", "tr", "ru", "ar", "he", "ja", "zh-CN", "hi", "id"] as const;
export type PersonLocale = (typeof PERSON_LOCALES)[number];
export const DEFAULT_PERSON_LOCALE: PersonLocale = "en";

/** Each language's name in itself, as the language switcher lists them (fixed, so the server and every browser render the same list). */
export const LANGUAGE_NAMES: Record<PersonLocale, string> = {
  en: "English",
  es: "Español",
  fr: "Français",
  de: "Deutsch",
  it: "Italiano",
  "pt-BR": "Português (Brasil)",
  nl: "Nederlands",
  pl: "Polski",
  tr: "Türkçe",
  ru: "Русский",
  ar: "العربية",
  he: "עברית",
  ja: "日本語",
  "zh-CN": "简体中文",
  hi: "हिन्दी",
  id: "Bahasa Indonesia",
};

const RIGHT_TO_LEFT = new Set<PersonLocale>(["ar", "he"]);

export function isPersonLocale(value: unknown): value is PersonLocale {
  return typeof value === "string" && (PERSON_LOCALES as readonly string[]).includes(value);
}

export function textDirection(locale: PersonLocale): "ltr" | "rtl" {
  return RIGHT_TO_LEFT.has(locale) ? "rtl" : "ltr";
}

/**
 * The request header that carries a person-facing page's language from the
 * proxy (proxy.ts, which reads the session) to the layouts that render it
 * (`<html lang dir>`, the page's messages). Only the proxy sets it.
 */
export const PERSON_LOCALE_HEADER = "x-person-locale";
