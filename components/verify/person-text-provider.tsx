import { NextIntlClientProvider } from "next-intl";
import type { PersonLocale } from "@/lib/i18n/locales";
import { personMessages } from "@/lib/i18n/person-messages";

/**
 * Gives the client components under it one language that is not the
 * request's (lib/i18n/request.ts): its locale and only its catalogue
 * (messages/<locale>.json). The pages not yet translated use it to keep
 * the face scan in English like the rest of the page.
 */
export async function PersonTextProvider({ locale, children }: { locale: PersonLocale; children: React.ReactNode }) {
  const messages = await personMessages(locale);
  return (
    <NextIntlClientProvider locale={locale} messages={messages}>
      {children}
    </NextIntlClientProvider>
  );
}
