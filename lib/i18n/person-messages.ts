import "server-only";
import type { Messages } from "next-intl";
import type { PersonLocale } from "./locales";

/**
 * The catalogue of one language (`messages/<locale>.json`; every one has
 * the English catalogue's keys, tests/unit/message-catalogues.test.ts),
 * read on the server: a page hands the client only its own language.
 */
export async function personMessages(locale: PersonLocale): Promise<Messages> {
  return (await import(`../../messages/${locale}.json`)).default as Messages;
}
