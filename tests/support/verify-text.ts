import { createTranslator } from "next-intl";
import messages from "@/messages/en.json";
import type { PersonLocale } from "@/lib/i18n/locales";

/** The hosted pages' English catalogue (namespace `verify` of messages/en.json), for tests that go over its keys. */
export const verifyMessages = messages.verify;

/**
 * The English text of a hosted-page message, formatted by next-intl as the
 * page renders it, so a test finds an element by its exact text:
 * `verifyText("start.heading", { app: "Shop" })`. A missing key or a
 * formatting error throws instead of returning next-intl's fallback.
 */
export const verifyText = createTranslator({
  locale: "en",
  messages,
  namespace: "verify",
  onError: (error) => {
    throw error;
  },
});

/** The keys of a catalogue object, typed, to build keys: `keysOf(verifyMessages.liveness.cues)`. */
export const keysOf = <T extends object>(object: T) => Object.keys(object) as Array<keyof T & string>;

/** The hosted pages' text in another language (messages/<locale>.json), formatted as the page formats it. */
export async function verifyTextIn(locale: PersonLocale) {
  const catalogue = (await import(`@/messages/${locale}.json`)).default as typeof messages;
  return createTranslator({
    locale,
    messages: catalogue,
    namespace: "verify",
    onError: (error) => {
      throw error;
    },
  });
}
