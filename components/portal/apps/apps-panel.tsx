"use client";

import Link from "next/link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Section } from "@/components/ui/section";
import type { PresentedApp } from "@/lib/tenancy/app-settings";
import { CreateByNameForm } from "../create-by-name-form";
import { formatDate, portalFetch, queryKeys, text } from "../api";
import { useServerSnapshot } from "../server-snapshot";
import { SecretsOnce } from "./secrets-once";

type Environment = "test" | "production";
type Created = { app_id: string; api_key: string; client_id: string; client_secret: string; name: string };

/** Stripe-like test/live switch: two links, the current one marked. */
function EnvironmentSwitch({ environment }: { environment: Environment }) {
  const t = text.environment;
  return (
    <nav aria-label={t.label} className="mt-4">
      <ul className="inline-flex rounded-lg border border-slate-300 bg-white p-1">
        {(["test", "production"] as const).map((env) => (
          <li key={env}>
            <Link
              href={`/dashboard/apps?environment=${env}`}
              aria-current={env === environment ? "page" : undefined}
              className={`block rounded-md px-4 py-2 font-semibold focus-visible:outline focus-visible:outline-3 focus-visible:outline-blue-700 ${
                env === environment ? (env === "production" ? "bg-emerald-700 text-white" : "bg-amber-200 text-amber-950") : "text-slate-800"
              }`}
            >
              {t[env]}
            </Link>
          </li>
        ))}
      </ul>
      <p className="mt-2 text-sm text-slate-700">{environment === "test" ? t.testHint : t.productionHint}</p>
    </nav>
  );
}

export function AppsPanel({ environment, initialApps }: { environment: Environment; initialApps: PresentedApp[] }) {
  const t = text.apps;
  const envName = text.environment[environment];
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<Created | null>(null);
  useServerSnapshot(queryKeys.apps(environment), initialApps);
  const apps = useQuery({
    queryKey: queryKeys.apps(environment),
    queryFn: () => portalFetch<{ apps: PresentedApp[] }>("GET", `/api/portal/apps?environment=${environment}`).then((d) => d.apps),
    initialData: initialApps,
  });
  const create = useMutation({
    mutationFn: (name: string) => portalFetch<Omit<Created, "name">>("POST", "/api/portal/apps", { name, environment }).then((d) => ({ ...d, name })),
    onSuccess: (data, _name) => {
      setCreated(data);
      void queryClient.invalidateQueries({ queryKey: queryKeys.allApps });
    },
  });
  return (
    <div>
      <h1 className="text-2xl font-semibold text-slate-900">{t.title}</h1>
      <p className="mt-1 text-slate-700">{t.intro}</p>
      <EnvironmentSwitch environment={environment} />

      <Section title={t.listLabel} id="apps-list">
        {apps.data.length === 0 ? (
          <p className="mt-2 text-slate-700">{t.empty(envName)}</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-200">
            {apps.data.map((app) => (
              <li key={app.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
                <div>
                  <Link href={`/dashboard/apps/${app.id}`} className="font-semibold text-blue-800 underline" aria-label={t.open(app.name)}>
                    {app.name}
                  </Link>
                  <p className="text-sm text-slate-700">
                    {t.clientId}: <code className="font-mono">{app.client_id}</code> · {t.created} {formatDate(app.created_at)}
                  </p>
                </div>
                <span className={`rounded-full px-2 py-0.5 text-sm font-medium ${app.is_active ? "bg-green-100 text-green-900" : "bg-slate-200 text-slate-800"}`}>
                  {app.is_active ? t.active : t.inactive}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section title={t.createHeading} id="create-app">
        {created && (
          <SecretsOnce
            heading={t.createdHeading(created.name)}
            secrets={[
              { label: t.apiKey, value: created.api_key },
              { label: text.apps.clientSecret, value: created.client_secret },
            ]}
            onDone={() => setCreated(null)}
          />
        )}
        <CreateByNameForm create={create} label={t.name} hint={t.nameHint} maxLength={120} submitLabel={t.create(envName)} pendingLabel={t.creating} />
      </Section>
    </div>
  );
}
