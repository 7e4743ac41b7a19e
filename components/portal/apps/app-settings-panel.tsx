"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useRef } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { LiveStatus, Notice } from "@/components/ui/notice";
import { Section } from "@/components/ui/section";
import type { PresentedApp } from "@/lib/tenancy/app-settings";
import { errorMessage, fieldErrors, portalFetch, queryKeys, text } from "../api";
import { useServerSnapshot } from "../server-snapshot";
import { FrameOriginsSection } from "./frame-origins-section";

const t = text.appSettings;

/** Rename, logo, the origins that may frame the hosted page, deactivate: each a mutation of /api/portal/apps/{id} that refreshes the app's reads. */
export function AppSettingsPanel({ initialApp, credentialCacheSeconds }: { initialApp: PresentedApp; credentialCacheSeconds: number }) {
  const appId = initialApp.id;
  const queryClient = useQueryClient();
  const router = useRouter();
  useServerSnapshot(queryKeys.app(appId), initialApp);
  const app = useQuery({
    queryKey: queryKeys.app(appId),
    queryFn: () => portalFetch<{ app: PresentedApp }>("GET", `/api/portal/apps/${appId}`).then((d) => d.app),
    initialData: initialApp,
  });
  const changed = (next: PresentedApp) => {
    queryClient.setQueryData(queryKeys.app(appId), next);
    void queryClient.invalidateQueries({ queryKey: queryKeys.allApps });
    void queryClient.invalidateQueries({ queryKey: queryKeys.oidc(appId) });
    router.refresh();
  };
  const rename = useMutation({
    mutationFn: (name: string) => portalFetch<{ app: PresentedApp }>("PATCH", `/api/portal/apps/${appId}`, { name }),
    onSuccess: (d) => changed(d.app),
  });
  const status = useMutation({
    mutationFn: (active: boolean) => portalFetch<{ app: PresentedApp }>("PATCH", `/api/portal/apps/${appId}`, { is_active: active }),
    onSuccess: (d) => changed(d.app),
  });
  const fileRef = useRef<HTMLInputElement>(null);
  const logo = useMutation({
    mutationFn: async (file: File | null) => {
      if (!file) return portalFetch("DELETE", `/api/portal/apps/${appId}/logo`);
      const form = new FormData();
      form.append("logo", file);
      return portalFetch("PUT", `/api/portal/apps/${appId}/logo`, form);
    },
    onSuccess: async () => {
      if (fileRef.current) fileRef.current.value = "";
      await queryClient.invalidateQueries({ queryKey: queryKeys.app(appId) });
    },
  });
  const current = app.data;
  return (
    <div>
      <Section title={t.renameHeading} id="rename">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            rename.mutate(String(new FormData(event.currentTarget).get("name") ?? ""));
          }}
          noValidate
        >
          {rename.isError && !fieldErrors(rename.error, "name") && <Notice tone="error">{errorMessage(rename.error)}</Notice>}
          <Field label={text.apps.name} name="name" defaultValue={current.name} hint={text.apps.nameHint} errors={fieldErrors(rename.error, "name")} />
          <Button type="submit" className="mt-4" disabled={rename.isPending}>
            {rename.isPending ? text.common.saving : t.rename}
          </Button>
          <LiveStatus className="mt-2 text-green-800">{rename.isSuccess ? t.renamed : ""}</LiveStatus>
        </form>
      </Section>

      <Section title={t.logoHeading} id="logo" description={t.logoIntro}>
        <div className="mt-3 flex items-center gap-4">
          {current.logo ? (
            // eslint-disable-next-line @next/next/no-img-element -- a data URL
            <img src={current.logo} alt={t.currentLogo(current.name)} className="h-16 w-16 rounded border border-slate-200 object-contain" />
          ) : (
            <p className="text-slate-700">{t.noLogo}</p>
          )}
        </div>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const file = fileRef.current?.files?.[0];
            if (file) logo.mutate(file);
          }}
          noValidate
        >
          {logo.isError && <Notice tone="error">{errorMessage(logo.error)}</Notice>}
          <Field ref={fileRef} label={t.logoFile} name="logo" type="file" accept="image/png,image/jpeg,image/webp,image/svg+xml" />
          <div className="mt-4 flex flex-wrap gap-3">
            <Button type="submit" disabled={logo.isPending}>
              {logo.isPending ? t.uploading : t.upload}
            </Button>
            {current.logo && (
              <Button variant="secondary" onClick={() => logo.mutate(null)} disabled={logo.isPending}>
                {t.removeLogo}
              </Button>
            )}
          </div>
          <LiveStatus className="mt-2 text-green-800">{logo.isSuccess ? t.logoSaved : ""}</LiveStatus>
        </form>
      </Section>

      <FrameOriginsSection app={current} onChanged={changed} />

      <Section title={t.statusHeading} id="status">
        <p className="mt-2 text-slate-800">{current.is_active ? t.activeText : t.inactiveText}</p>
        {status.isError && <Notice tone="error">{errorMessage(status.error)}</Notice>}
        <Button variant={current.is_active ? "secondary" : "primary"} className="mt-4" disabled={status.isPending} onClick={() => status.mutate(!current.is_active)}>
          {current.is_active ? t.deactivate : t.activate}
        </Button>
        <p className="mt-2 text-sm text-slate-700">{t.statusNote(credentialCacheSeconds)}</p>
      </Section>
    </div>
  );
}
