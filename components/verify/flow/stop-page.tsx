"use client";

import type { StoppedBy } from "../api/types";
import { useMessages } from "../i18n";
import { buttonClass } from "../ui/button";
import { StepHeading } from "../ui/step-heading";

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
  const t = useMessages();
  const reason = t.stopped.reasons[stoppedBy.code] ?? t.stopped.reasons.other!;
  return (
    <section data-stopped-by={stoppedBy.type}>
      <StepHeading>{t.stopped.heading}</StepHeading>
      <p className="mt-4 text-slate-700">{reason(appName)}</p>
      <p className="mt-2 text-slate-700">{t.stopped.skipped}</p>
      <p className="mt-2 text-slate-700">{t.stopped.whatNext(appName)}</p>
      {returnUrl && !onPhone ? (
        <div className="mt-6">
          <a href={returnUrl} className={buttonClass("primary", "w-full sm:w-auto")}>
            {t.stopped.returnTo(appName)}
          </a>
        </div>
      ) : (
        <p className="mt-2 text-slate-700">{t.stopped.closeTab}</p>
      )}
    </section>
  );
}
