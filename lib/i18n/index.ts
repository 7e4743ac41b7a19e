import { en, type Messages } from "./en";

/**
 * The developer-facing text (the portal, top-up line items): English only.
 * The person-facing pages speak the person's language: lib/i18n/locales.ts
 * and messages/<locale>.json.
 */
export const MESSAGES: Record<string, Messages> = { en };
export const DEFAULT_LOCALE = "en";

export type { Messages };

export function messagesFor(locale: string): Messages {
  return MESSAGES[locale] ?? MESSAGES[DEFAULT_LOCALE]!;
}
