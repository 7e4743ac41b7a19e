"use client";

import { useTranslations } from "next-intl";
import { LanguageSwitcher } from "../language-switcher";

/**
 * The frame of every verification page: who is asking (the app's logo and
 * name) and the language switcher at the top, the content in one readable column, mobile first.
 */
export function VerifyShell({ appName, logo, children }: { appName: string | null; logo?: string | null; children: React.ReactNode }) {
  const t = useTranslations("verify");
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-2xl items-center gap-3 px-4 py-3 sm:px-6">
          {logo && (
            // eslint-disable-next-line @next/next/no-img-element -- the app's logo is a data URL
            <img src={logo} alt={appName ? t("shell.logoAlt", { app: appName }) : ""} className="h-9 w-9 rounded object-contain" />
          )}
          <p className="min-w-0 flex-1 truncate font-semibold text-slate-900">{appName ? t("shell.verificationFor", { app: appName }) : t("meta.title")}</p>
          <p className="hidden items-center gap-1.5 text-sm text-slate-700 sm:flex">
            <LockIcon />
            {t("shell.secure")}
          </p>
          <LanguageSwitcher />
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-2xl flex-1 px-4 pb-16 pt-6 sm:px-6 sm:pt-10">
        {children}
      </main>
    </div>
  );
}

function LockIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" className="h-4 w-4 fill-current">
      <path d="M8 1a3.5 3.5 0 0 0-3.5 3.5V7H4a1.5 1.5 0 0 0-1.5 1.5v5A1.5 1.5 0 0 0 4 15h8a1.5 1.5 0 0 0 1.5-1.5v-5A1.5 1.5 0 0 0 12 7h-.5V4.5A3.5 3.5 0 0 0 8 1Zm2 6H6V4.5a2 2 0 1 1 4 0V7Z" />
    </svg>
  );
}
