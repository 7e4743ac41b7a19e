"use client";

import { useMutation } from "@tanstack/react-query";
import { useRef } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { LiveStatus, Notice } from "@/components/ui/notice";
import { Section } from "@/components/ui/section";
import type { PresentedApp } from "@/lib/tenancy/app-settings";
import { errorMessage, fieldErrors, portalFetch, text } from "../api";
import { RemovableList } from "../removable-list";

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
      <RemovableList
        values={app.frame_origins}
        empty={t.framesEmpty}
        removeLabel={t.framesRemove}
        removeShort={t.framesRemoveShort}
        disabled={save.isPending}
        onRemove={(origin) => save.mutate(app.frame_origins.filter((o) => o !== origin))}
      />
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
