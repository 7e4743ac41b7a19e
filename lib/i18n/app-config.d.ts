import type messages from "../../messages/en.json";
import type { PersonLocale } from "./locales";

// next-intl's types: message keys and ICU arguments are checked against the
// English catalogue, locales against the supported list (lib/i18n/locales.ts).
declare module "next-intl" {
  interface AppConfig {
    Locale: PersonLocale;
    Messages: typeof messages;
  }
}
