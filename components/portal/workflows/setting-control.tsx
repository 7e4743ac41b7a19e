"use client";

import { useId } from "react";
import { INPUT_CLASS } from "@/components/ui/field";
import type { SettingDescription } from "@/lib/workflows/settings-description";
import { text } from "../api";
import type { SettingValue } from "./builder-form";

const t = text.workflows;

export function settingLabel(setting: SettingDescription) {
  const key = setting.path.replace(/^settings\./, "");
  return t.settings[key] ?? { label: setting.name, hint: "" };
}

const optionLabel = (option: string) => t.options[option] ?? option;

/** The default and the bounds of a setting, in words, from its description. */
export function boundsText(setting: SettingDescription): string {
  const parts: string[] = [];
  if (setting.kind === "number") {
    parts.push(t.defaultIs(setting.default === null ? t.defaultNone : String(setting.default)));
    const { min, above, max } = setting;
    if (above !== undefined && max !== undefined) parts.push(t.aboveAtMost(String(above), String(max)));
    else if (min !== undefined && max !== undefined) parts.push(t.range(String(min), String(max)));
    else if (min !== undefined) parts.push(t.atLeast(String(min)));
    else if (max !== undefined) parts.push(t.atMost(String(max)));
    if (setting.integer) parts.push(t.wholeNumber);
    parts.push(setting.nullable ? t.emptyForNone : t.emptyForDefault);
  } else if (setting.kind === "boolean") {
    parts.push(t.defaultIs(setting.default ? t.on : t.off));
  } else if (setting.kind === "choices") {
    const all = setting.default.length === setting.options.length;
    parts.push(t.defaultIs(all ? t.defaultAll : setting.default.map(optionLabel).join(", ") || t.defaultNone));
    if (setting.minItems) parts.push(t.minChoices(setting.minItems));
  } else {
    parts.push(t.defaultIs(setting.default.join(", ") || t.defaultNone), t.commaSeparated);
  }
  return parts.join(" ");
}

/**
 * One setting's control, generated from its description: a number input
 * (bounds as min/max, the form does not block out-of-range values so the
 * server's message shows), a group of checkboxes, a checkbox for a yes/no
 * setting, or a comma-separated list;
 * its label, hint, default and bounds, and its errors next to it.
 */
export function SettingControl({
  setting,
  value,
  errors,
  onChange,
}: {
  setting: SettingDescription;
  value: SettingValue | undefined;
  errors?: string[];
  onChange: (value: SettingValue) => void;
}) {
  const id = useId();
  const { label, hint } = settingLabel(setting);
  const hintId = `${id}-hint`;
  const errorId = errors?.length ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ");
  const hintLine = (
    <p id={hintId} className="mt-1 text-sm text-slate-600">
      {hint ? `${hint} ` : ""}
      <span className="text-slate-700">{boundsText(setting)}</span>
    </p>
  );
  const errorLine = errorId && (
    <p id={errorId} className="mt-1 text-sm font-medium text-red-800">
      {errors!.join(" ")}
    </p>
  );
  if (setting.kind === "choices") {
    const chosen = Array.isArray(value) ? value : [];
    return (
      <fieldset className="mt-4" aria-describedby={describedBy} aria-invalid={errorId ? true : undefined}>
        <legend className="font-medium text-slate-900">{label}</legend>
        {hintLine}
        <div className="mt-1 flex flex-wrap gap-x-6">
          {setting.options.map((option) => (
            <div key={option} className="mt-2 flex items-center gap-2">
              <input
                id={`${id}-${option}`}
                type="checkbox"
                className="h-5 w-5"
                checked={chosen.includes(option)}
                onChange={(event) => onChange(event.currentTarget.checked ? [...chosen, option] : chosen.filter((o) => o !== option))}
              />
              <label htmlFor={`${id}-${option}`}>{optionLabel(option)}</label>
            </div>
          ))}
        </div>
        {errorLine}
      </fieldset>
    );
  }
  if (setting.kind === "boolean") {
    return (
      <div className="mt-4">
        <div className="flex items-center gap-2">
          <input
            id={id}
            name={setting.path}
            type="checkbox"
            className="h-5 w-5"
            checked={value === true}
            onChange={(event) => onChange(event.currentTarget.checked)}
            aria-invalid={errorId ? true : undefined}
            aria-describedby={describedBy}
          />
          <label htmlFor={id} className="font-medium text-slate-900">
            {label}
          </label>
        </div>
        {hintLine}
        {errorLine}
      </div>
    );
  }
  const numeric = setting.kind === "number";
  return (
    <div className="mt-4">
      <label htmlFor={id} className="block font-medium text-slate-900">
        {label}
      </label>
      {hintLine}
      <input
        id={id}
        name={setting.path}
        type={numeric ? "number" : "text"}
        inputMode={numeric ? (setting.integer ? "numeric" : "decimal") : undefined}
        step={numeric ? (setting.integer ? 1 : "any") : undefined}
        min={numeric ? (setting.min ?? setting.above) : undefined}
        max={numeric ? setting.max : undefined}
        placeholder={numeric && setting.default !== null ? String(setting.default) : undefined}
        value={typeof value === "string" ? value : ""}
        onChange={(event) => onChange(event.currentTarget.value)}
        aria-invalid={errorId ? true : undefined}
        aria-describedby={describedBy}
        className={`${INPUT_CLASS} ${numeric ? "sm:max-w-xs" : ""}`}
      />
      {errorLine}
    </div>
  );
}
