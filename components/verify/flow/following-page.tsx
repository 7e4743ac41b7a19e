"use client";

import type { FlowApi } from "../api/flow-api";
import type { FlowState, FlowStep } from "../api/types";
import { useFlowPolling } from "../handoff/use-flow-polling";
import { useMessages } from "../i18n";
import { LiveStatus } from "../ui/notice";
import { StepHeading } from "../ui/step-heading";
import { isStepDone } from "./person-steps";

/** The computer's view while the phone does the steps: each step's state, updated by polling. */
export function FollowingPage({ api, steps, onFlow }: { api: FlowApi; steps: FlowStep[]; onFlow: (flow: FlowState) => void }) {
  const t = useMessages();
  const names = t.progress.steps as Record<string, string>;
  useFlowPolling(api, true, onFlow);
  const done = steps.filter(isStepDone).length;
  return (
    <section>
      <StepHeading>{t.handoff.waitingHeading}</StepHeading>
      <p className="mt-4 text-slate-700">{t.handoff.waiting}</p>
      <ul className="mt-4 space-y-2">
        {steps.map((s, i) => (
          <li key={`${s.type}-${i}`} className="flex items-center gap-3 rounded-lg border border-slate-300 bg-white px-4 py-3">
            <span aria-hidden="true" className={isStepDone(s) ? "text-green-700" : "text-slate-500"}>
              {isStepDone(s) ? "✓" : "…"}
            </span>
            <span className="flex-1 text-slate-900">{names[s.type] ?? names.other}</span>
            <span className="text-sm text-slate-700">{isStepDone(s) ? t.handoff.stepDone : t.handoff.stepWaiting}</span>
          </li>
        ))}
      </ul>
      <LiveStatus className="sr-only">{t.handoff.doneCount(done, steps.length)}</LiveStatus>
    </section>
  );
}
