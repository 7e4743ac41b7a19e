"use client";

import { useLocale, useTranslations } from "next-intl";
import type { FlowState, FlowStep } from "../api/types";
import type { VerifyTranslator } from "../i18n";
import { Actions, Button } from "../ui/button";
import { StepHeading } from "../ui/step-heading";

/** The catalogue key for a step type under `group`, null when the catalogue has no sentence for it. */
function typeKey(t: VerifyTranslator, group: "start.needs" | "start.checks", type: string) {
  const key = `${group}.${type}` as Parameters<VerifyTranslator["has"]>[0];
  return t.has(key) ? key : null;
}

/**
 * The first page: who is asking, what the person will need, what will be
 * checked (derived checks included) and why, and the privacy notice.
 */
export function StartPage({
  flow,
  steps,
  resuming,
  preferPhone,
  onStart,
  handoff,
}: {
  flow: FlowState;
  steps: FlowStep[];
  resuming: boolean;
  /** No usable camera here: the QR code comes first and starting here is secondary. */
  preferPhone: boolean;
  onStart: () => void;
  handoff: React.ReactNode;
}) {
  const t = useTranslations("verify");
  const locale = useLocale();
  const app = flow.app.name;
  const needs = [...new Set(steps.filter((s) => !s.reused).map((s) => s.type))]
    .map((type) => {
      // A type with nothing to prepare has no sentence.
      const key = typeKey(t, "start.needs", type);
      return key ? t(key) : null;
    })
    .filter((need): need is string => Boolean(need));
  const checks = flow.steps.map((s) => t(typeKey(t, "start.checks", s.type) ?? "start.checks.other"));
  const expires = new Date(flow.expires_at).toLocaleString(locale, { dateStyle: "medium", timeStyle: "short" }); // the page's language, the browser's time zone
  const startButton = (
    <Button variant={preferPhone ? "secondary" : "primary"} onClick={onStart}>
      {preferPhone ? t("handoff.useThisDevice") : resuming ? t("start.resume") : t("start.begin")}
    </Button>
  );

  return (
    <section>
      <StepHeading>{t("start.heading", { app })}</StepHeading>
      {needs.length > 0 && (
        <>
          <p className="mt-4 text-slate-700">{t("start.intro")}</p>
          <ul className="mt-2 list-disc space-y-1 ps-5 text-slate-700">
            {needs.map((need) => (
              <li key={need}>{need}</li>
            ))}
          </ul>
        </>
      )}

      <h2 className="mt-6 text-lg font-semibold text-slate-900">{t("start.checksHeading")}</h2>
      <ul className="mt-2 space-y-2">
        {checks.map((text, i) => (
          <li key={`${flow.steps[i]!.type}`} className="flex gap-2 text-slate-700">
            <span aria-hidden="true" className="mt-0.5 font-bold text-blue-700">
              ✓
            </span>
            <span>
              {text}
              {flow.steps[i]!.reused && <span className="block text-sm text-emerald-800">{t("start.reused")}</span>}
            </span>
          </li>
        ))}
      </ul>

      <h2 className="mt-6 text-lg font-semibold text-slate-900">{t("start.whyHeading")}</h2>
      <p className="mt-2 text-slate-700">{t("start.why", { app })}</p>

      <h2 className="mt-6 text-lg font-semibold text-slate-900">{t("start.privacyHeading")}</h2>
      <p className="mt-2 text-slate-700">{t("start.privacy", { app })}</p>
      <p className="mt-2 text-sm text-slate-700">{t("start.expires", { when: expires })}</p>

      {preferPhone ? (
        <>
          {handoff}
          <Actions>{startButton}</Actions>
        </>
      ) : (
        <>
          <Actions>{startButton}</Actions>
          {handoff}
        </>
      )}
    </section>
  );
}
