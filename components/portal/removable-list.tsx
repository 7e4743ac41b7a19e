"use client";

import { Button } from "@/components/ui/button";

/**
 * A short list of exact values (redirect URIs, frame origins), each with a
 * Remove button named after its value; `empty` when there is none.
 */
export function RemovableList({
  values,
  empty,
  removeLabel,
  removeShort,
  disabled,
  onRemove,
}: {
  values: string[];
  empty: string;
  removeLabel: (value: string) => string;
  removeShort: string;
  disabled: boolean;
  onRemove: (value: string) => void;
}) {
  if (values.length === 0) return <p className="mt-2 text-slate-700">{empty}</p>;
  return (
    <ul className="mt-2 divide-y divide-slate-200">
      {values.map((value) => (
        <li key={value} className="flex flex-wrap items-center justify-between gap-2 py-2">
          <code className="break-all font-mono text-sm">{value}</code>
          <Button variant="secondary" className="min-h-10 px-3 py-1.5 text-sm" aria-label={removeLabel(value)} disabled={disabled} onClick={() => onRemove(value)}>
            {removeShort}
          </Button>
        </li>
      ))}
    </ul>
  );
}
