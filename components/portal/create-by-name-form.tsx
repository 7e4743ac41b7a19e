"use client";

import type { UseMutationResult } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { errorMessage, fieldErrors } from "./api";

/**
 * A form that creates something from a name (an app, an API key): the
 * mutation's field error next to the field, any other error above it, the
 * typed name kept on error (the form is not reset), the button disabled
 * while the request runs.
 */
export function CreateByNameForm<T>({
  create,
  label,
  hint,
  maxLength,
  submitLabel,
  pendingLabel,
}: {
  create: UseMutationResult<T, Error, string>;
  label: string;
  hint: string;
  maxLength: number;
  submitLabel: string;
  pendingLabel: string;
}) {
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate(String(new FormData(event.currentTarget).get("name") ?? ""));
      }}
      noValidate
    >
      {create.isError && !fieldErrors(create.error, "name") && <Notice tone="error">{errorMessage(create.error)}</Notice>}
      <Field label={label} name="name" required maxLength={maxLength} hint={hint} errors={fieldErrors(create.error, "name")} />
      <Button type="submit" className="mt-4" disabled={create.isPending}>
        {create.isPending ? pendingLabel : submitLabel}
      </Button>
    </form>
  );
}
