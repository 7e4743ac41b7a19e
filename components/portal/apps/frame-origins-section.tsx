"use client";

import { useMutation } from "@tanstack/react-query";
import { useRef } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { LiveStatus, Notice } from "@/components/ui/notice";
import { Section } from "@/components/ui/section";
import type { PresentedApp } from "@/lib/tenancy/app-settings";
import { errorMessage, fieldErrors, portalFetch, text } from "../api";

const t = text.appSettings;

/**
 * The origins that may frame the app's hosted page: listed with Remove, one
 * added at a time. Each change sends the whole list (PATCH
 * /api/portal/apps/{id} `frame_origins`); the server's refusal of the new
 * entry (`frame_origins.<n>`) or of the list (`frame_origins`) is shown next
 * to the field, which keeps what was typed.
 */
export function FrameOriginsSection({ app, onChanged }: { app: PresentedApp; onChanged: (next: PresentedApp) => void }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const save = useMutation({
    mutationFn: (frameOrigins: string[]) => portalFetch<{ app: PresentedApp }>("PATCH", `/api/portal/apps/${app.id}`, { frame_origins: frameOrigins }),
    onSuccess: (d, frameOrigins) => {
      if (inputRef.current && frameOrigins.length > app.frame_origins.length) inputRef.current.value = "";
      onChanged(d.app);
    },
  });
  const errors = [
    ...(fieldErrors(save.error, `frame_origins.${app.frame_origins.length}`) ?? []),
    ...(fieldErrors(save.error, "frame_origins") ?? []),
  ];
  return (
    <Section title={t.framesHeading} id="frame-origins" description={t.framesIntro}>
      {app.frame_origins.length === 0 ? (
        <p className="mt-2 text-slate-700">{t.framesEmpty}</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-200">
          {app.frame_origins.map((origin) => (
            <li key={origin} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <code className="break-all font-mono text-sm">{origin}</code>
              <Button
                variant="secondary"
                className="min-h-10 px-3 py-1.5 text-sm"
                aria-label={t.framesRemove(origin)}
                disabled={save.isPending}
                onClick={() => save.mutate(app.frame_origins.filter((o) => o !== origin))}
              >
                {t.framesRemoveShort}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate([...app.frame_origins, String(new FormData(event.currentTarget).get("origin") ?? "")]);
        }}
        noValidate
      >
        {save.isError && errors.length === 0 && <Notice tone="error">{errorMessage(save.error)}</Notice>}
        <Field
          ref={inputRef}
          id="frame-origin-new"
          label={t.framesNew}
          name="origin"
          type="url"
          inputMode="url"
          placeholder="https://"
          errors={errors.length ? errors : undefined}
        />
        <Button type="submit" className="mt-4" disabled={save.isPending}>
          {t.framesAdd}
        </Button>
        <LiveStatus className="mt-2 text-green-800">{save.isSuccess ? t.framesSaved : ""}</LiveStatus>
      </form>
    </Section>
  );
}
