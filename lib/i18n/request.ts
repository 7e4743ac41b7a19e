import { headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { personLocaleOfRequest } from "./choose-person-locale";
import { personMessages } from "./person-messages";

/**
 * next-intl's request configuration (next.config.mjs names this file): the
 * language proxy.ts chose for the request (English where it chose none)
 * and that language's catalogue, for server components and for
 * NextIntlClientProvider's defaults.
 */
export default getRequestConfig(async () => {
  const locale = personLocaleOfRequest(await headers());
  return { locale, messages: await personMessages(locale) };
});
