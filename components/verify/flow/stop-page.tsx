"use client";

import { useTranslations } from "next-intl";
import type { StoppedBy } from "../api/types";
import type { VerifyTranslator } from "../i18n";
import { buttonClass } from "../ui/button";
import { StepHeading } from "../ui/step-heading";

/** Why a check stopped the session, in plain words; the generic sentence for a code without its own. */
function reasonText(t: VerifyTranslator, code: string, app: string): string {
  const key = `stopped.reasons.${code}` as Parameters<VerifyTranslator["has"]>[0];
  // Only `under_minimum_age` uses the app's name; the others ignore it.
  return t(t.has(key) ? key : "stopped.reasons.other", { app });
}

/**
 * The page shown instead of the next step once a check decided the session
 * (docs/sessions.md "Decision engine"): what happened,
 * in plain words, that nothing more is asked, and what the person can do.
 * No automatic redirect: the person reads it and goes back when ready.
 */
export function StopPage({
  appName,
  stoppedBy,
  returnUrl,
  onPhone,
}: {
  appName: string;
  stoppedBy: StoppedBy;
  returnUrl: string | null;
  onPhone: boolean;
}) {
  const t = useTranslations("verify");
  return (
    <section data-stopped-by={stoppedBy.type}>
      <StepHeading>{t("stopped.heading")}</StepHeading>
      <p className="mt-4 text-slate-700">{reasonText(t, stoppedBy.code, appName)}</p>
      <p className="mt-2 text-slate-700">{t("stopped.skipped")}</p>
      <p className="mt-2 text-slate-700">{t("stopped.whatNext", { app: appName })}</p>
      {returnUrl && !onPhone ? (
        <div className="mt-6">
          <a href={returnUrl} className={buttonClass("primary", "w-full sm:w-auto")}>
            {t("stopped.returnTo", { app: appName })}
          </a>
        </div>
      ) : (
        <p className="mt-2 text-slate-700">{t("stopped.closeTab")}</p>
      )}
    </section>
  );
}
