"use client";

import { useTranslations } from "next-intl";

/**
 * If the page itself fails (a bug, a browser without a needed API), the
 * person sees a friendly page with a way to continue, never a stack trace.
 * Progress is on the server and the token in sessionStorage, so a reload
 * resumes. It renders inside the verify layout, whose provider gives it the
 * person's language.
 */
export default function VerifyError() {
  const t = useTranslations("verify");
  return (
    <main className="mx-auto max-w-2xl px-4 py-10 sm:px-6">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{t("problems.crashed.heading")}</h1>
      <p className="mt-4 text-slate-700">{t("problems.crashed.body")}</p>
      <button
        type="button"
        onClick={() => window.location.reload()}
        className="mt-6 inline-flex min-h-12 items-center justify-center rounded-lg bg-blue-700 px-5 py-3 font-semibold text-white hover:bg-blue-800 focus-visible:outline focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
      >
        {t("problems.crashed.reload")}
      </button>
    </main>
  );
}
