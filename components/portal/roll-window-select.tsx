"use client";

import { useId } from "react";
import { INPUT_CLASS } from "@/components/ui/field";
import { DEFAULT_ROLL_WINDOW_SECONDS, ROLL_WINDOWS } from "@/lib/tenancy/roll-window";
import { text } from "./api";

const t = text.roll;

/** The roll dialog's choice: when the old key or secret stops working (now, 1 hour, 24 hours (default), 3 days, 7 days). */
export function RollWindowSelect({ value, onChange, disabled }: { value: number; onChange: (seconds: number) => void; disabled: boolean }) {
  const id = useId();
  return (
    <div className="mt-4">
      <label htmlFor={id} className="block font-medium text-slate-900">
        {t.windowLabel}
      </label>
      <select id={id} className={`${INPUT_CLASS} mt-1`} value={value} disabled={disabled} onChange={(event) => onChange(Number(event.currentTarget.value))}>
        {ROLL_WINDOWS.map((w) => (
          <option key={w.seconds} value={w.seconds}>
            {w.seconds === DEFAULT_ROLL_WINDOW_SECONDS ? t.defaultChoice(w.label) : w.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** "in 23 hours", "in 5 minutes", "in 2 days": how long until `iso`, rounded down to its largest unit. */
export function timeUntil(iso: string, nowMs = Date.now()): string {
  const seconds = Math.max(0, Math.floor((Date.parse(iso) - nowMs) / 1000));
  const format = new Intl.RelativeTimeFormat("en", { numeric: "always" });
  if (seconds >= 86_400) return format.format(Math.floor(seconds / 86_400), "day");
  if (seconds >= 3600) return format.format(Math.floor(seconds / 3600), "hour");
  if (seconds >= 60) return format.format(Math.floor(seconds / 60), "minute");
  return format.format(seconds, "second");
}

/** How long the old one keeps working, for a sentence ("for 24 hours"); null: it stops now. */
export function keepForPhrase(seconds: number): string | null {
  if (seconds === 0) return null;
  const label = ROLL_WINDOWS.find((w) => w.seconds === seconds)?.label;
  return label ? label.replace(/^In /, "for ") : `for ${seconds} seconds`;
}
