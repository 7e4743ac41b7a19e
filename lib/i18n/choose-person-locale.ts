import { match } from "@formatjs/intl-localematcher";
import Negotiator from "negotiator";
import { DEFAULT_PERSON_LOCALE, isPersonLocale, PERSON_LOCALE_HEADER, PERSON_LOCALES, type PersonLocale } from "./locales";

/**
 * The supported language a BCP 47 tag asks for (`fr-CA` -> `fr`, `pt` ->
 * `pt-BR`, `iw` -> `he`), by CLDR's language matching within the same
 * language; null for a tag that is not well formed or that no supported
 * language serves.
 */
export function personLocaleFor(tag: string): PersonLocale | null {
  let canonical: string[];
  try {
    canonical = Intl.getCanonicalLocales(tag);
  } catch {
    return null;
  }
  if (canonical.length !== 1) return null;
  const found = match(canonical, PERSON_LOCALES, "", { algorithm: "best fit" });
  // CLDR's matching also offers a fallback in another language (Swahili -> English): only the same language serves.
  if (!isPersonLocale(found) || new Intl.Locale(found).language !== new Intl.Locale(canonical[0]!).language) return null;
  return found;
}

/** The languages an `Accept-Language` header asks for, best first. */
export function acceptedLanguages(header: string | null | undefined): string[] {
  if (!header) return [];
  return new Negotiator({ headers: { "accept-language": header } }).languages();
}

/**
 * The language of a person-facing page, first that applies: the person's
 * own choice on the page (the language switcher), the language the app
 * asked for (a session's `language`), the browser's languages in order,
 * the app's default language, English.
 */
export function choosePersonLocale(choices: {
  chosen?: string | null;
  requested?: string | null;
  acceptLanguage?: string | null;
  appDefault?: string | null;
}): PersonLocale {
  for (const tag of [choices.chosen, choices.requested]) {
    const locale = tag ? personLocaleFor(tag) : null;
    if (locale) return locale;
  }
  for (const tag of acceptedLanguages(choices.acceptLanguage)) {
    if (tag === "*") continue;
    const locale = personLocaleFor(tag);
    if (locale) return locale;
  }
  return (choices.appDefault && personLocaleFor(choices.appDefault)) || DEFAULT_PERSON_LOCALE;
}

/** The language a request's layouts render in: the proxy's choice when it made one, else English. */
export function personLocaleOfRequest(headers: Headers): PersonLocale {
  const value = headers.get(PERSON_LOCALE_HEADER);
  return isPersonLocale(value) ? value : DEFAULT_PERSON_LOCALE;
}
