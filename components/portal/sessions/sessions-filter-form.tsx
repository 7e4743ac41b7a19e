"use client";

import Form from "next/form";
import Link from "next/link";
import { useId } from "react";
import { Button, buttonClass } from "@/components/ui/button";
import { Field, INPUT_CLASS } from "@/components/ui/field";
import { SESSION_STATUSES } from "@/lib/sessions/statuses";
import { text } from "../api";
import { statusLabel } from "./labels";

const t = text.sessions;

/**
 * The list's filters as a GET form: submitting changes the address
 * (`?status=...&vendor_data=...`), which the server renders (the first page
 * is in the HTML) and which can be shared. A refused value is explained next
 * to its field and stays as typed.
 */
export function SessionsFilterForm({
  action,
  status,
  vendorData,
  errors,
}: {
  action: string;
  status: string;
  vendorData: string;
  errors: Record<string, string[]>;
}) {
  const selectId = useId();
  const statusErrorId = `${selectId}-error`;
  const statusErrors = errors.status;
  return (
    <Form action={action} className="grid gap-x-4 sm:grid-cols-2" aria-label={t.filtersHeading}>
      <div className="mt-4">
        <label htmlFor={selectId} className="block font-medium text-slate-900">
          {t.status}
        </label>
        <select
          id={selectId}
          name="status"
          defaultValue={status}
          className={INPUT_CLASS}
          aria-invalid={statusErrors ? true : undefined}
          aria-describedby={statusErrors ? statusErrorId : undefined}
        >
          <option value="">{t.anyStatus}</option>
          {SESSION_STATUSES.map((s) => (
            <option key={s} value={s}>
              {statusLabel(s)}
            </option>
          ))}
        </select>
        {statusErrors && (
          <p id={statusErrorId} className="mt-1 text-sm font-medium text-red-800">
            {statusErrors.join(" ")}
          </p>
        )}
      </div>
      <Field label={t.vendorData} name="vendor_data" defaultValue={vendorData} hint={t.vendorDataHint} errors={errors.vendor_data} maxLength={1000} />
      <div className="mt-4 flex flex-col gap-3 sm:col-span-2 sm:flex-row">
        <Button type="submit">{t.apply}</Button>
        {(status || vendorData) && (
          <Link href={action} className={buttonClass("secondary")}>
            {t.clear}
          </Link>
        )}
      </div>
    </Form>
  );
}
