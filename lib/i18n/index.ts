import { en, type Messages } from "./en";

/**
 * The languages of the hosted verification pages. To add one, write
 * `lib/i18n/<code>.ts` exporting an object typed `Messages` (TypeScript then
 * lists every missing string) and register it here.
 */
export const MESSAGES: Record<string, Messages> = { en };
export const DEFAULT_LOCALE = "en";

export type { Messages };

/** The best registered language for a list of preferences such as `navigator.languages`. */
export function pickLocale(preferences: readonly string[] = []): string {
  for (const tag of preferences) {
    const lower = tag.toLowerCase();
    if (MESSAGES[lower]) return lower;
    const base = lower.split("-")[0]!;
    if (MESSAGES[base]) return base;
  }
  return DEFAULT_LOCALE;
}

export function messagesFor(locale: string): Messages {
  return MESSAGES[locale] ?? MESSAGES[DEFAULT_LOCALE]!;
}
