"use client";

import { forwardRef, useId } from "react";

/**
 * A labelled input with its hint and its errors next to it (announced, and
 * tied to the input with aria-describedby / aria-invalid). Uncontrolled by
 * default, so what was typed stays on an error.
 */
type FieldProps = React.InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  hint?: string;
  errors?: string[];
};

export const INPUT_CLASS =
  "mt-1 block w-full min-h-11 rounded-lg border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 focus-visible:outline focus-visible:outline-3 focus-visible:outline-offset-1 focus-visible:outline-blue-700 aria-[invalid=true]:border-red-700";

export const Field = forwardRef<HTMLInputElement, FieldProps>(function Field({ label, hint, errors, className = "", id, ...input }, ref) {
  const auto = useId();
  const inputId = id ?? auto;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = errors?.length ? `${inputId}-error` : undefined;
  return (
    <div className={`mt-4 ${className}`}>
      <label htmlFor={inputId} className="block font-medium text-slate-900">
        {label}
      </label>
      {hint && (
        <p id={hintId} className="mt-1 text-sm text-slate-600">
          {hint}
        </p>
      )}
      <input
        ref={ref}
        id={inputId}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(" ") || undefined}
        className={INPUT_CLASS}
        {...input}
      />
      {errorId && (
        <p id={errorId} className="mt-1 text-sm font-medium text-red-800">
          {errors!.join(" ")}
        </p>
      )}
    </div>
  );
});
