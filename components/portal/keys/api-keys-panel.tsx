"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { LiveStatus, Notice } from "@/components/ui/notice";
import { Section } from "@/components/ui/section";
import type { PresentedApiKey } from "@/lib/tenancy/api-keys";
import { CreateByNameForm } from "../create-by-name-form";
import { DataTable } from "../data-table";
import { errorMessage, formatDate, portalFetch, queryKeys, text } from "../api";
import { useServerSnapshot } from "../server-snapshot";
import { SecretsOnce } from "../apps/secrets-once";

const t = text.apiKeys;
type NewKey = { id: string; name: string; prefix: string; api_key: string };

/** Create (shown once), list (prefix, created, last used), revoke. */
export function ApiKeysPanel({ appId, initialKeys, credentialCacheSeconds }: { appId: string; initialKeys: PresentedApiKey[]; credentialCacheSeconds: number }) {
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<NewKey | null>(null);
  useServerSnapshot(queryKeys.keys(appId), initialKeys);
  const keys = useQuery({
    queryKey: queryKeys.keys(appId),
    queryFn: () => portalFetch<{ keys: PresentedApiKey[] }>("GET", `/api/portal/apps/${appId}/keys`).then((d) => d.keys),
    initialData: initialKeys,
  });
  const create = useMutation({
    mutationFn: (name: string) => portalFetch<NewKey>("POST", `/api/portal/apps/${appId}/keys`, { name }),
    onSuccess: (key) => {
      setCreated(key);
      void queryClient.invalidateQueries({ queryKey: queryKeys.keys(appId) });
    },
  });
  const revoke = useMutation({
    mutationFn: (key: PresentedApiKey) => portalFetch<{ prefix: string }>("DELETE", `/api/portal/apps/${appId}/keys/${key.id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.keys(appId) }),
  });
  return (
    <div>
      <p className="mt-1 text-slate-700">{t.intro}</p>
      <Section title={t.createHeading} id="create-key">
        {created && <SecretsOnce heading={t.newKey(created.name)} secrets={[{ label: text.apps.apiKey, value: created.api_key }]} onDone={() => setCreated(null)} />}
        <CreateByNameForm create={create} label={t.name} hint={t.nameHint} maxLength={60} submitLabel={t.create} pendingLabel={t.creating} />
      </Section>

      <Section title={t.listHeading} id="keys" description={t.revokeNote(credentialCacheSeconds)}>
        {revoke.isError && <Notice tone="error">{errorMessage(revoke.error)}</Notice>}
        <LiveStatus className="mt-2 text-green-800">{revoke.isSuccess ? t.revoked(revoke.data.prefix) : ""}</LiveStatus>
        <DataTable
          label={t.listHeading}
          rows={keys.data}
          rowKey={(key) => key.id}
          empty={t.empty}
          columns={[
            { header: t.columns.name, cell: (key) => key.name },
            { header: t.columns.prefix, cell: (key) => <code className="font-mono">{key.prefix}…</code> },
            { header: t.columns.created, cell: (key) => formatDate(key.created_at) },
            { header: t.columns.lastUsed, cell: (key) => formatDate(key.last_used_at) },
            {
              header: t.columns.status,
              cell: (key) =>
                key.revoked_at ? (
                  <span className="text-slate-700">{t.revokedAt(formatDate(key.revoked_at))}</span>
                ) : (
                  <Button
                    variant="secondary"
                    className="min-h-10 px-3 py-1.5 text-sm"
                    aria-label={t.revoke(`${key.name} (${key.prefix}…)`)}
                    disabled={revoke.isPending}
                    onClick={() => revoke.mutate(key)}
                  >
                    {t.revokeShort}
                  </Button>
                ),
            },
          ]}
        />
      </Section>
    </div>
  );
}
