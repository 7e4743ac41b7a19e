"use client";

import { useTranslations } from "next-intl";
import type { FlowApi } from "../api/flow-api";
import type { FlowState, FlowStep } from "../api/types";
import { useFlowPolling } from "../handoff/use-flow-polling";
import type { VerifyTranslator } from "../i18n";
import { LiveStatus } from "../ui/notice";
import { StepHeading } from "../ui/step-heading";
import { isStepDone } from "./person-steps";

/** The name of a step type, "Check" for a type without one. */
function stepName(t: VerifyTranslator, type: string): string {
  const key = `progress.steps.${type}` as Parameters<VerifyTranslator["has"]>[0];
  return t(t.has(key) ? key : "progress.steps.other");
}

/** The computer's view while the phone does the steps: each step's state, updated by polling. */
export function FollowingPage({ api, steps, onFlow }: { api: FlowApi; steps: FlowStep[]; onFlow: (flow: FlowState) => void }) {
  const t = useTranslations("verify");
  useFlowPolling(api, true, onFlow);
  const done = steps.filter(isStepDone).length;
  return (
    <section>
      <StepHeading>{t("handoff.waitingHeading")}</StepHeading>
      <p className="mt-4 text-slate-700">{t("handoff.waiting")}</p>
      <ul className="mt-4 space-y-2">
        {steps.map((s, i) => (
          <li key={`${s.type}-${i}`} className="flex items-center gap-3 rounded-lg border border-slate-300 bg-white px-4 py-3">
            <span aria-hidden="true" className={isStepDone(s) ? "text-green-700" : "text-slate-500"}>
              {isStepDone(s) ? "✓" : "…"}
            </span>
            <span className="flex-1 text-slate-900">{stepName(t, s.type)}</span>
            <span className="text-sm text-slate-700">{isStepDone(s) ? t("handoff.stepDone") : t("handoff.stepWaiting")}</span>
          </li>
        ))}
      </ul>
      <LiveStatus className="sr-only">{t("handoff.doneCount", { done, total: steps.length })}</LiveStatus>
    </section>
  );
}
