"use client";

import { useTranslations } from "next-intl";
import type { VerifyTranslator } from "../i18n";

/** The name of a step type, "Check" for a type without one. */
function stepName(t: VerifyTranslator, type: string): string {
  const key = `progress.steps.${type}` as Parameters<VerifyTranslator["has"]>[0];
  return t(t.has(key) ? key : "progress.steps.other");
}

/**
 * Where the person is: "Step 2 of 3" and one segment per step, the current
 * one marked `aria-current="step"`, each with its state for screen readers.
 */
export function ProgressIndicator({ steps, current }: { steps: string[]; current: number }) {
  const t = useTranslations("verify");
  return (
    <nav aria-label={t("progress.label")} className="mb-6">
      <p className="text-sm font-semibold text-slate-700">
        {t("common.stepOf", { step: Math.min(current + 1, steps.length), total: steps.length })}
      </p>
      <ol className="mt-2 flex gap-2">
        {steps.map((type, i) => {
          const state = i < current ? "completed" : i === current ? "current" : "upcoming";
          return (
            <li key={`${type}-${i}`} aria-current={state === "current" ? "step" : undefined} className="flex-1">
              <span
                aria-hidden="true"
                className={`block h-2 rounded-full ${state === "completed" ? "bg-blue-700" : state === "current" ? "bg-blue-400" : "bg-slate-300"}`}
              />
              <span className={`mt-1 block text-xs sm:text-sm ${state === "current" ? "font-semibold text-slate-900" : "text-slate-700"}`}>
                {stepName(t, type)}
                <span className="sr-only">
                  {" "}
                  ({state === "completed" ? t("progress.completed") : state === "current" ? t("progress.current") : t("progress.upcoming")})
                </span>
              </span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
