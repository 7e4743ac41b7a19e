"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { LiveStatus, Notice } from "@/components/ui/notice";
import { errorMessage, formatDate, portalFetch, queryKeys, text } from "../api";
import { SecretsOnce } from "../apps/secrets-once";
import { DataTable } from "../data-table";
import type { PresentedWebhookEndpoint } from "./types";

const t = text.webhooks;
const SMALL = "min-h-10 px-3 py-1.5 text-sm";

/** The app's webhooks: URL, status, registered; approve, rotate the signing secret (shown once). */
export function WebhookEndpointsTable({ appId, webhooks }: { appId: string; webhooks: PresentedWebhookEndpoint[] }) {
  const queryClient = useQueryClient();
  const [rotated, setRotated] = useState<{ url: string; secret: string } | null>(null);
  const approve = useMutation({
    mutationFn: (hook: PresentedWebhookEndpoint) =>
      portalFetch<{ webhook: PresentedWebhookEndpoint }>("POST", `/api/portal/apps/${appId}/webhooks/${hook.webhook_id}/approve`).then((d) => d.webhook),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.webhooks(appId) }),
  });
  const rotate = useMutation({
    mutationFn: (hook: PresentedWebhookEndpoint) =>
      portalFetch<{ secret: string }>("POST", `/api/portal/apps/${appId}/webhooks/${hook.webhook_id}/secret`).then((d) => ({ url: hook.url, secret: d.secret })),
    onSuccess: setRotated,
  });
  const failed = approve.isError ? approve.error : rotate.isError ? rotate.error : null;
  return (
    <>
      {rotated && <SecretsOnce heading={t.rotatedSecret(rotated.url)} secrets={[{ label: t.signingSecret, value: rotated.secret }]} note={t.secretShownOnce} onDone={() => setRotated(null)} />}
      {failed && <Notice tone="error">{errorMessage(failed)}</Notice>}
      <LiveStatus className="mt-2 text-green-800">{approve.isSuccess ? t.approvedNote(approve.data.url) : ""}</LiveStatus>
      <DataTable
        label={t.listHeading}
        rows={webhooks}
        rowKey={(hook) => hook.webhook_id}
        empty={t.empty}
        columns={[
          { header: t.columns.url, cell: (hook) => <code className="break-all font-mono">{hook.url}</code> },
          {
            header: t.columns.status,
            cell: (hook) => (!hook.active ? t.inactive : hook.approved ? t.approved : <span className="font-medium text-amber-900">{t.awaitingApproval}</span>),
          },
          { header: t.columns.created, nowrap: true, cell: (hook) => formatDate(hook.created_at) },
          {
            header: t.columns.actions,
            cell: (hook) => (
              <div className="flex flex-wrap gap-2">
                {!hook.approved && (
                  <Button className={SMALL} aria-label={t.approveLabel(hook.url)} disabled={approve.isPending} onClick={() => approve.mutate(hook)}>
                    {t.approve}
                  </Button>
                )}
                <Button variant="secondary" className={SMALL} aria-label={t.rotateLabel(hook.url)} disabled={rotate.isPending} onClick={() => rotate.mutate(hook)}>
                  {t.rotate}
                </Button>
              </div>
            ),
          },
        ]}
      />
      <p className="mt-3 text-sm text-slate-700">{t.rotateNote}</p>
    </>
  );
}
