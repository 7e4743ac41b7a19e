"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { buttonClass } from "../ui/button";
import { LiveStatus } from "../ui/notice";
import { StepHeading } from "../ui/step-heading";

/** Seconds the final page stays before returning the person to the app. */
export const REDIRECT_DELAY_S = 3;

/**
 * The final page. It does not show the outcome (the `?status=` on the way
 * back is only a hint; the app reads the decision), except that a review
 * takes longer. Then back to the app's `redirect_url` with the hint, or, on
 * a phone that took over from a computer, "go back to your computer".
 */
export function DonePage({
  appName,
  status,
  redirectUrl,
  onPhone,
  alreadyComplete,
}: {
  appName: string;
  status: string;
  redirectUrl: string | null;
  onPhone: boolean;
  alreadyComplete: boolean;
}) {
  const t = useTranslations("verify");
  const redirecting = Boolean(redirectUrl) && !onPhone && !alreadyComplete;
  const [seconds, setSeconds] = useState(REDIRECT_DELAY_S);

  useEffect(() => {
    if (!redirecting || !redirectUrl) return;
    const started = Date.now();
    const timer = window.setInterval(() => {
      const left = REDIRECT_DELAY_S - Math.floor((Date.now() - started) / 1000);
      setSeconds(Math.max(0, left));
      if (left <= 0) {
        window.clearInterval(timer);
        window.location.assign(redirectUrl);
      }
    }, 250);
    return () => window.clearInterval(timer);
  }, [redirecting, redirectUrl]);

  const heading = alreadyComplete ? t("problems.closed.heading") : t("finish.heading");
  const body = status === "IN_REVIEW" ? t("finish.review", { app: appName }) : t("finish.complete", { app: appName });
  return (
    <section data-status={status.toLowerCase()}>
      <StepHeading>{heading}</StepHeading>
      <p className="mt-4 text-slate-700">{body}</p>
      {onPhone && <p className="mt-2 text-slate-700">{t("finish.phoneDone")}</p>}
      {redirecting && <LiveStatus className="mt-4 text-slate-700">{t("finish.redirecting", { app: appName, seconds })}</LiveStatus>}
      {redirectUrl && !onPhone ? (
        <div className="mt-6">
          <a href={redirectUrl} className={buttonClass("primary", "w-full sm:w-auto")}>
            {t("finish.returnNow", { app: appName })}
          </a>
        </div>
      ) : (
        !onPhone && <p className="mt-2 text-slate-700">{t("finish.closeTab")}</p>
      )}
    </section>
  );
}
