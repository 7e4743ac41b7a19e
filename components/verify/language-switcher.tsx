"use client";

import { useLocale, useTranslations } from "next-intl";
import { LANGUAGE_NAMES, PERSON_LOCALES } from "@/lib/i18n/locales";

/**
 * The person's own choice of language on a hosted page: the page loads
 * again with `?lang=` (proxy.ts puts it before the session's language and
 * the browser's), at the same step: the flow's progress lives on the
 * server and the session link in this tab's storage.
 */
export function LanguageSwitcher() {
  const t = useTranslations("verify");
  const locale = useLocale();
  return (
    <label className="flex items-center gap-1.5 text-sm text-slate-700">
      <span className="sr-only">{t("shell.language")}</span>
      <GlobeIcon />
      <select
        value={locale}
        onChange={(event) => {
          const url = new URL(window.location.href);
          url.searchParams.set("lang", event.target.value);
          window.location.assign(url.toString());
        }}
        className="rounded-md border border-slate-300 bg-white py-1 pe-7 ps-2 text-sm text-slate-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600"
      >
        {PERSON_LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
    </label>
  );
}

function GlobeIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" className="h-4 w-4 fill-none stroke-current" strokeWidth="1.3">
      <circle cx="8" cy="8" r="6.5" />
      <path d="M1.5 8h13M8 1.5c2 2 2.8 4.2 2.8 6.5S10 12.5 8 14.5M8 1.5C6 3.5 5.2 5.7 5.2 8S6 12.5 8 14.5" />
    </svg>
  );
}
