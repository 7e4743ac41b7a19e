"use client";

import { useTranslations } from "next-intl";
import type { VerifyTranslator } from "../i18n";

type TypeKey = Extract<Parameters<VerifyTranslator["has"]>[0], `document.types.${string}`>;

/** A document type's name; a type the catalogue does not name shows as its code. */
function typeName(t: VerifyTranslator, type: string): string {
  const key = `document.types.${type}` as TypeKey;
  return t.has(key) ? t(key) : type;
}

/** The document type, as a radio group with large tap targets. */
export function DocumentTypePicker({ types, value, onChange }: { types: string[]; value: string | null; onChange: (type: string) => void }) {
  const t = useTranslations("verify");
  return (
    <fieldset className="mt-6">
      <legend className="text-lg font-semibold text-slate-900">{t("document.typeLegend")}</legend>
      <div className="mt-3 grid gap-3 sm:grid-cols-3">
        {types.map((type) => (
          <label
            key={type}
            className="flex min-h-12 cursor-pointer items-center gap-3 rounded-lg border border-slate-400 bg-white px-4 py-3 font-medium text-slate-900 has-[:checked]:border-blue-700 has-[:checked]:bg-blue-50 has-[:checked]:ring-2 has-[:checked]:ring-blue-700 has-[:focus-visible]:outline has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-blue-700"
          >
            <input type="radio" name="document_type" value={type} checked={value === type} onChange={() => onChange(type)} className="h-5 w-5 accent-blue-700" />
            {typeName(t, type)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
