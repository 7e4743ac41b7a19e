import { NextIntlClientProvider } from "next-intl";
import type { PersonLocale } from "@/lib/i18n/locales";
import { personMessages } from "@/lib/i18n/person-messages";

/**
 * Gives the client components under it the person's language: its locale
 * and only that language's catalogue (messages/<locale>.json), so a page
 * never ships the other languages.
 */
export async function PersonTextProvider({ locale, children }: { locale: PersonLocale; children: React.ReactNode }) {
  const messages = await personMessages(locale);
  return (
    <NextIntlClientProvider locale={locale} messages={messages}>
      {children}
    </NextIntlClientProvider>
  );
}
