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
import { ConfirmDialog } from "../confirm-dialog";
import { keepForPhrase, RollWindowSelect, timeUntil } from "../roll-window-select";
import { DEFAULT_ROLL_WINDOW_SECONDS } from "@/lib/tenancy/roll-window";

const t = text.apiKeys;
const SMALL = "min-h-10 px-3 py-1.5 text-sm";
type NewKey = { id: string; name: string; prefix: string; api_key: string };
type RolledKey = NewKey & { previous: { id: string; prefix: string; expires_at: string } };

/** What a key's status cell says: revoked, expired (a rolled key past its expiry), expiring, or active. */
function keyStatus(key: PresentedApiKey): { text: string; usable: boolean; rolled: boolean } {
  if (key.revoked_at) return { text: t.revokedAt(formatDate(key.revoked_at)), usable: false, rolled: false };
  if (key.expires_at && Date.parse(key.expires_at) <= Date.now()) return { text: t.expiredAt(formatDate(key.expires_at)), usable: false, rolled: true };
  if (key.expires_at) return { text: t.expiresIn(timeUntil(key.expires_at)), usable: true, rolled: true };
  return { text: t.active, usable: true, rolled: false };
}

/**
 * Create (shown once), list (prefix, created, last used, status), roll (a
 * new key shown once; the old one works for the window chosen in the
 * confirmation) and revoke (after a confirmation: requests fail at once).
 */
export function ApiKeysPanel({ appId, initialKeys, credentialCacheSeconds }: { appId: string; initialKeys: PresentedApiKey[]; credentialCacheSeconds: number }) {
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<{ heading: string; key: string } | null>(null);
  const [rolling, setRolling] = useState<PresentedApiKey | null>(null);
  const [rollWindow, setRollWindow] = useState(DEFAULT_ROLL_WINDOW_SECONDS);
  const [revoking, setRevoking] = useState<PresentedApiKey | null>(null);
  useServerSnapshot(queryKeys.keys(appId), initialKeys);
  const keys = useQuery({
    queryKey: queryKeys.keys(appId),
    queryFn: () => portalFetch<{ keys: PresentedApiKey[] }>("GET", `/api/portal/apps/${appId}/keys`).then((d) => d.keys),
    initialData: initialKeys,
  });
  const create = useMutation({
    mutationFn: (name: string) => portalFetch<NewKey>("POST", `/api/portal/apps/${appId}/keys`, { name }),
    onSuccess: (key) => {
      setCreated({ heading: t.newKey(key.name), key: key.api_key });
      void queryClient.invalidateQueries({ queryKey: queryKeys.keys(appId) });
    },
  });
  const roll = useMutation({
    mutationFn: ({ key, seconds }: { key: PresentedApiKey; seconds: number }) =>
      portalFetch<RolledKey>("POST", `/api/portal/apps/${appId}/keys/${key.id}/roll`, { expire_previous_in: seconds }),
    onSuccess: (key) => {
      setRolling(null);
      setCreated({ heading: t.rolledKey(key.name, key.previous.prefix, timeUntil(key.previous.expires_at)), key: key.api_key });
      void queryClient.invalidateQueries({ queryKey: queryKeys.keys(appId) });
    },
    onError: () => setRolling(null),
  });
  const revoke = useMutation({
    mutationFn: (key: PresentedApiKey) => portalFetch<{ prefix: string }>("DELETE", `/api/portal/apps/${appId}/keys/${key.id}`),
    onSuccess: () => {
      setRevoking(null);
      return queryClient.invalidateQueries({ queryKey: queryKeys.keys(appId) });
    },
    onError: () => setRevoking(null),
  });
  return (
    <div>
      <p className="mt-1 text-slate-700">{t.intro}</p>
      <Section title={t.createHeading} id="create-key">
        {created && <SecretsOnce heading={created.heading} secrets={[{ label: text.apps.apiKey, value: created.key }]} onDone={() => setCreated(null)} />}
        <CreateByNameForm create={create} label={t.name} hint={t.nameHint} maxLength={60} submitLabel={t.create} pendingLabel={t.creating} />
      </Section>

      <Section title={t.listHeading} id="keys" description={t.revokeNote(credentialCacheSeconds)}>
        <p className="mt-1 text-sm text-slate-700">{t.rollNote}</p>
        {[revoke, roll].map((m, i) => m.isError && <Notice key={i} tone="error">{errorMessage(m.error)}</Notice>)}
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
              cell: (key) => {
                const status = keyStatus(key);
                const name = `${key.name} (${key.prefix}…)`;
                return (
                  <div className="flex flex-wrap items-center gap-2">
                    <span className={status.rolled ? "font-medium text-amber-900" : "text-slate-700"}>{status.text}</span>
                    {status.usable && !status.rolled && (
                      <Button variant="secondary" className={SMALL} aria-label={t.roll(name)} disabled={roll.isPending} onClick={() => setRolling(key)}>
                        {t.rollShort}
                      </Button>
                    )}
                    {!key.revoked_at && (
                      <Button variant="secondary" className={SMALL} aria-label={t.revoke(name)} disabled={revoke.isPending} onClick={() => setRevoking(key)}>
                        {t.revokeShort}
                      </Button>
                    )}
                  </div>
                );
              },
            },
          ]}
        />
      </Section>
      {rolling && (
        <ConfirmDialog
          heading={t.rollConfirm.heading(`${rolling.name} (${rolling.prefix}…)`)}
          consequences={t.rollConfirm.consequences(keepForPhrase(rollWindow))}
          confirmLabel={t.rollConfirm.button}
          pendingLabel={t.rollConfirm.pending}
          pending={roll.isPending}
          onCancel={() => setRolling(null)}
          onConfirm={() => roll.mutate({ key: rolling, seconds: rollWindow })}
        >
          <RollWindowSelect value={rollWindow} onChange={setRollWindow} disabled={roll.isPending} />
        </ConfirmDialog>
      )}
      {revoking && (
        <ConfirmDialog
          heading={t.revokeConfirm.heading(`${revoking.name} (${revoking.prefix}…)`)}
          consequences={t.revokeConfirm.consequences(credentialCacheSeconds)}
          confirmLabel={t.revokeConfirm.button}
          pendingLabel={t.revokeConfirm.pending}
          pending={revoke.isPending}
          danger
          onCancel={() => setRevoking(null)}
          onConfirm={() => revoke.mutate(revoking)}
        />
      )}
    </div>
  );
}
