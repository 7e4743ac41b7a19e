"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { LiveStatus, Notice } from "@/components/ui/notice";
import { errorMessage, formatDate, portalFetch, queryKeys, text } from "../api";
import { SecretsOnce } from "../apps/secrets-once";
import { ConfirmDialog } from "../confirm-dialog";
import { DataTable } from "../data-table";
import { keepForPhrase, RollWindowSelect, timeUntil } from "../roll-window-select";
import { DEFAULT_ROLL_WINDOW_SECONDS } from "@/lib/tenancy/roll-window";
import type { DeletedWebhook, PresentedWebhookEndpoint } from "./types";

const t = text.webhooks;
const SMALL = "min-h-10 px-3 py-1.5 text-sm";

/**
 * The app's webhooks: URL (and while a rotated-away secret still signs,
 * until when), status, registered; approve, rotate the signing secret (after
 * a confirmation choosing how long the old one keeps signing too; the new
 * one shown once), disable / enable, delete (after a confirmation that
 * says its pending deliveries are cancelled). A change reloads the list and
 * the delivery log (held and cancelled deliveries).
 */
export function WebhookEndpointsTable({ appId, webhooks }: { appId: string; webhooks: PresentedWebhookEndpoint[] }) {
  const queryClient = useQueryClient();
  const [rotated, setRotated] = useState<{ url: string; secret: string } | null>(null);
  const [deleting, setDeleting] = useState<PresentedWebhookEndpoint | null>(null);
  const [rotating, setRotating] = useState<PresentedWebhookEndpoint | null>(null);
  const [rollWindow, setRollWindow] = useState(DEFAULT_ROLL_WINDOW_SECONDS);
  /** What the last change did, announced (approved, disabled, enabled, deleted). */
  const [note, setNote] = useState("");
  const refresh = () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.webhooks(appId) }), queryClient.invalidateQueries({ queryKey: queryKeys.allDeliveries(appId) })]);
  const toggle = useMutation({
    mutationFn: (hook: PresentedWebhookEndpoint) =>
      portalFetch<{ webhook: PresentedWebhookEndpoint }>("PATCH", `/api/portal/apps/${appId}/webhooks/${hook.webhook_id}`, { active: !hook.active }).then(
        (d) => d.webhook,
      ),
    onSuccess: async (hook) => {
      setNote(hook.active ? t.enabledNote(hook.url) : t.disabledNote(hook.url));
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (hook: PresentedWebhookEndpoint) =>
      portalFetch<DeletedWebhook>("DELETE", `/api/portal/apps/${appId}/webhooks/${hook.webhook_id}`).then((d) => ({ url: hook.url, cancelled: d.cancelled_deliveries })),
    onSuccess: async (deleted) => {
      setDeleting(null);
      setNote(t.deletedNote(deleted.url, deleted.cancelled));
      await refresh();
    },
    // The error is shown on the page, not behind the modal.
    onError: () => setDeleting(null),
  });
  const approve = useMutation({
    mutationFn: (hook: PresentedWebhookEndpoint) =>
      portalFetch<{ webhook: PresentedWebhookEndpoint }>("POST", `/api/portal/apps/${appId}/webhooks/${hook.webhook_id}/approve`).then((d) => d.webhook),
    onSuccess: (hook) => {
      setNote(t.approvedNote(hook.url));
      return queryClient.invalidateQueries({ queryKey: queryKeys.webhooks(appId) });
    },
  });
  const rotate = useMutation({
    mutationFn: ({ hook, seconds }: { hook: PresentedWebhookEndpoint; seconds: number }) =>
      portalFetch<{ secret: string }>("POST", `/api/portal/apps/${appId}/webhooks/${hook.webhook_id}/secret`, { expire_previous_in: seconds }).then((d) => ({
        url: hook.url,
        secret: d.secret,
      })),
    onSuccess: (done) => {
      setRotating(null);
      setRotated(done);
      return queryClient.invalidateQueries({ queryKey: queryKeys.webhooks(appId) });
    },
    onError: () => setRotating(null),
  });
  const failed = [approve, rotate, toggle, remove].find((m) => m.isError)?.error ?? null;
  return (
    <>
      {rotated && <SecretsOnce heading={t.rotatedSecret(rotated.url)} secrets={[{ label: t.signingSecret, value: rotated.secret }]} note={t.secretShownOnce} onDone={() => setRotated(null)} />}
      {failed && <Notice tone="error">{errorMessage(failed)}</Notice>}
      <LiveStatus className="mt-2 text-green-800">{note}</LiveStatus>
      <DataTable
        label={t.listHeading}
        rows={webhooks}
        rowKey={(hook) => hook.webhook_id}
        empty={t.empty}
        columns={[
          {
            header: t.columns.url,
            cell: (hook) => (
              <>
                <code className="break-all font-mono">{hook.url}</code>
                {hook.previous_secret_expires_at && (
                  <span className="mt-1 block text-sm font-medium text-amber-900">{t.previousExpires(timeUntil(hook.previous_secret_expires_at))}</span>
                )}
              </>
            ),
          },
          {
            header: t.columns.status,
            cell: (hook) =>
              !hook.active ? (
                <span className="font-medium text-slate-700">{t.disabled}</span>
              ) : hook.approved ? (
                t.approved
              ) : (
                <span className="font-medium text-amber-900">{t.awaitingApproval}</span>
              ),
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
                <Button variant="secondary" className={SMALL} aria-label={t.rotateLabel(hook.url)} disabled={rotate.isPending} onClick={() => setRotating(hook)}>
                  {t.rotate}
                </Button>
                <Button
                  variant="secondary"
                  className={SMALL}
                  aria-label={hook.active ? t.disableLabel(hook.url) : t.enableLabel(hook.url)}
                  disabled={toggle.isPending}
                  onClick={() => toggle.mutate(hook)}
                >
                  {hook.active ? t.disable : t.enable}
                </Button>
                <Button variant="secondary" className={SMALL} aria-label={t.deleteLabel(hook.url)} disabled={remove.isPending} onClick={() => setDeleting(hook)}>
                  {t.delete}
                </Button>
              </div>
            ),
          },
        ]}
      />
      <p className="mt-3 text-sm text-slate-700">{t.rotateNote}</p>
      <p className="mt-1 text-sm text-slate-700">{t.lifecycleNote}</p>
      {rotating && (
        <ConfirmDialog
          heading={t.rotateConfirm.heading(rotating.url)}
          consequences={t.rotateConfirm.consequences(keepForPhrase(rollWindow))}
          confirmLabel={t.rotateConfirm.button}
          pendingLabel={t.rotateConfirm.pending}
          pending={rotate.isPending}
          onCancel={() => setRotating(null)}
          onConfirm={() => rotate.mutate({ hook: rotating, seconds: rollWindow })}
        >
          <RollWindowSelect value={rollWindow} onChange={setRollWindow} disabled={rotate.isPending} />
        </ConfirmDialog>
      )}
      {deleting && (
        <ConfirmDialog
          heading={t.deleteConfirm.heading(deleting.url)}
          consequences={t.deleteConfirm.consequences}
          confirmLabel={t.deleteConfirm.button}
          pendingLabel={t.deleteConfirm.pending}
          pending={remove.isPending}
          danger
          onCancel={() => setDeleting(null)}
          onConfirm={() => remove.mutate(deleting)}
        />
      )}
    </>
  );
}
