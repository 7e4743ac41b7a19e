"use client";

import { useMessages } from "../i18n";

/**
 * Where the person is: "Step 2 of 3" and one segment per step, the current
 * one marked `aria-current="step"`, each with its state for screen readers.
 */
export function ProgressIndicator({ steps, current }: { steps: string[]; current: number }) {
  const t = useMessages();
  const names = t.progress.steps as Record<string, string>;
  return (
    <nav aria-label={t.progress.label} className="mb-6">
      <p className="text-sm font-semibold text-slate-700">
        {t.common.stepOf(Math.min(current + 1, steps.length), steps.length)}
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
                {names[type] ?? names.other}
                <span className="sr-only">
                  {" "}
                  ({state === "completed" ? t.progress.completed : state === "current" ? t.progress.current : t.progress.upcoming})
                </span>
              </span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
