"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { errorMessage, fieldErrors, portalFetch, queryKeys, text } from "../api";
import { SecretsOnce } from "../apps/secrets-once";
import type { RegisteredWebhook } from "./types";

const t = text.webhooks;

/**
 * Registers a webhook URL (checked on the server by the same rules as the
 * CLI: HTTPS, http://localhost for test apps, no refused address for live
 * apps); the refusal is shown next to the field and what was typed stays.
 * The signing secret is shown once.
 */
export function RegisterWebhookForm({ appId, environment }: { appId: string; environment: "test" | "production" }) {
  const queryClient = useQueryClient();
  const [registered, setRegistered] = useState<RegisteredWebhook | null>(null);
  const register = useMutation({
    mutationFn: (url: string) => portalFetch<RegisteredWebhook>("POST", `/api/portal/apps/${appId}/webhooks`, { url }),
    onSuccess: (hook) => {
      setRegistered(hook);
      const input = document.getElementById("webhook-url") as HTMLInputElement | null;
      if (input) input.value = "";
      void queryClient.invalidateQueries({ queryKey: queryKeys.webhooks(appId) });
    },
  });
  return (
    <>
      {registered && (
        <>
          <SecretsOnce heading={t.newSecret(registered.url)} secrets={[{ label: t.signingSecret, value: registered.secret }]} note={t.secretShownOnce} onDone={() => setRegistered(null)} />
          <p className="mt-2 text-sm text-slate-700">{t.registeredNote}</p>
        </>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          register.mutate(String(new FormData(event.currentTarget).get("url") ?? ""));
        }}
        noValidate
      >
        {register.isError && !fieldErrors(register.error, "url") && <Notice tone="error">{errorMessage(register.error)}</Notice>}
        <Field
          id="webhook-url"
          label={t.url}
          name="url"
          type="url"
          inputMode="url"
          placeholder="https://"
          maxLength={2000}
          required
          hint={t.urlHint(environment)}
          errors={fieldErrors(register.error, "url")}
        />
        <Button type="submit" className="mt-4" disabled={register.isPending}>
          {register.isPending ? t.registering : t.register}
        </Button>
      </form>
    </>
  );
}
