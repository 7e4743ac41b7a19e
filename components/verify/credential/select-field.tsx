"use client";

import { forwardRef, useId } from "react";
import { INPUT_CLASS } from "@/components/ui/field";

/**
 * A native <select> with its label and, next to it, its error (tied with
 * aria-describedby / aria-invalid): phones show their own picker, and the
 * keyboard and screen readers work as everywhere else.
 */
type Option = { value: string; label: string };

export const SelectField = forwardRef<
  HTMLSelectElement,
  {
    label: string;
    placeholder: string;
    options: Option[];
    value: string;
    onChange: (value: string) => void;
    error?: string | null;
    disabled?: boolean;
  }
>(function SelectField({ label, placeholder, options, value, onChange, error, disabled }, ref) {
  const id = useId();
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className="mt-4">
      <label htmlFor={id} className="block font-medium text-slate-900">
        {label}
      </label>
      <select
        ref={ref}
        id={id}
        value={value}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={errorId}
        onChange={(event) => onChange(event.currentTarget.value)}
        className={`${INPUT_CLASS} disabled:bg-slate-100`}
      >
        <option value="" disabled>
          {placeholder}
        </option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {errorId && (
        <p id={errorId} className="mt-1 text-sm font-medium text-red-800">
          {error}
        </p>
      )}
    </div>
  );
});
