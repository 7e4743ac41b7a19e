"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { Button, BUTTON_BASE } from "@/components/ui/button";
import { LiveStatus, Notice } from "@/components/ui/notice";
import { Section } from "@/components/ui/section";
import { errorMessage, formatDate, formatMoney, portalFetch, queryKeys, text } from "../api";
import { useServerSnapshot } from "../server-snapshot";
import type { PresentedWorkflow } from "./workflow-builder";

const t = text.workflows;
const DANGER_BUTTON = `${BUTTON_BASE} bg-red-700 text-white hover:bg-red-800 disabled:bg-slate-400`;

type TestSession = { session_id: string; url: string; expires_at: string };

/** The app facts the actions need: its environment, whether it is active, and this workflow's cost per session. */
export type WorkflowActionsContext = { environment: "test" | "production"; appActive: boolean; costCents: number };

/**
 * A saved workflow's actions: activate / deactivate, a test session (the
 * hosted page opens in a new tab; live apps are warned that checks bill real
 * money) and delete, behind a confirmation that says what deleting does
 * (spec 4.2).
 */
export function WorkflowActions({ appId, initial, context }: { appId: string; initial: PresentedWorkflow; context: WorkflowActionsContext }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const key = queryKeys.workflow(appId, initial.id);
  useServerSnapshot(key, initial);
  const workflow = useQuery({
    queryKey: key,
    queryFn: () => portalFetch<{ workflow: PresentedWorkflow }>("GET", `/api/portal/apps/${appId}/workflows/${initial.id}`).then((d) => d.workflow),
    initialData: initial,
  });
  const current = workflow.data;
  const status = useMutation({
    mutationFn: (active: boolean) => portalFetch<{ workflow: PresentedWorkflow }>("PATCH", `/api/portal/apps/${appId}/workflows/${initial.id}`, { is_active: active }),
    onSuccess: (d) => {
      queryClient.setQueryData(key, d.workflow);
      void queryClient.invalidateQueries({ queryKey: queryKeys.workflows(appId) });
    },
  });
  const test = useMutation({
    mutationFn: () => portalFetch<TestSession>("POST", `/api/portal/apps/${appId}/workflows/${initial.id}/test-session`),
  });
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLDivElement>(null);
  const remove = useMutation({
    mutationFn: () => portalFetch<{ deleted: true }>("DELETE", `/api/portal/apps/${appId}/workflows/${initial.id}`),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: key });
      queryClient.setQueryData(queryKeys.workflowDeleted(appId), current.name);
      void queryClient.invalidateQueries({ queryKey: queryKeys.workflows(appId) });
      router.push(`/dashboard/apps/${appId}/workflows`);
    },
  });
  const blocked = !context.appActive ? t.testAppInactive : !current.is_active ? t.testInactive : null;
  return (
    <>
      <Section title={t.statusHeading} id="workflow-status">
        <div className="mt-3 flex items-center gap-3">
          <input
            id="workflow-active"
            type="checkbox"
            role="switch"
            className="h-5 w-5"
            checked={status.isPending ? status.variables : current.is_active}
            disabled={status.isPending}
            aria-describedby="workflow-status-text"
            onChange={(event) => status.mutate(event.currentTarget.checked)}
          />
          <label htmlFor="workflow-active" className="font-medium">
            {t.statusLabel}
          </label>
        </div>
        <p id="workflow-status-text" className="mt-2 text-slate-800">
          {current.is_active ? t.activeText : t.inactiveText}
        </p>
        {status.isError && <Notice tone="error">{errorMessage(status.error)}</Notice>}
        <LiveStatus className="mt-2 text-green-800">{status.isSuccess ? (status.data.workflow.is_active ? t.activated : t.deactivated) : ""}</LiveStatus>
      </Section>

      <Section title={t.testHeading} id="workflow-test" description={t.testIntro}>
        {context.environment === "production" ? (
          <Notice tone="warning" live="off">
            {t.testLiveWarning}
          </Notice>
        ) : (
          <p className="mt-2 text-slate-700">{t.testTestApp}</p>
        )}
        <p className="mt-2 text-slate-700">{t.testCost(formatMoney(context.costCents / 100))}</p>
        {test.isError && <Notice tone="error">{errorMessage(test.error)}</Notice>}
        <Button className="mt-4" disabled={test.isPending || blocked !== null} aria-describedby={blocked ? "workflow-test-blocked" : undefined} onClick={() => test.mutate()}>
          {test.isPending ? t.creatingTest : t.createTest}
        </Button>
        {blocked && (
          <p id="workflow-test-blocked" className="mt-2 text-sm text-slate-700">
            {blocked}
          </p>
        )}
        {test.isSuccess && (
          <Notice tone="success">
            <p>{t.testCreated(test.data.session_id, formatDate(test.data.expires_at))}</p>
            <p className="mt-2">
              <a href={test.data.url} target="_blank" rel="noopener" className="font-semibold text-blue-800 underline underline-offset-2">
                {t.openHosted} <span className="text-sm font-normal">{t.newTab}</span>
              </a>
            </p>
          </Notice>
        )}
      </Section>

      <Section title={t.deleteHeading} id="workflow-delete" description={t.deleteIntro}>
        {!confirming ? (
          <Button
            variant="secondary"
            className="mt-4"
            onClick={() => {
              setConfirming(true);
              requestAnimationFrame(() => confirmRef.current?.focus());
            }}
          >
            {t.delete}
          </Button>
        ) : (
          <div ref={confirmRef} tabIndex={-1} role="group" aria-labelledby="workflow-delete-confirm" className="mt-4 rounded-lg border border-red-300 bg-red-50 p-4 focus-visible:outline focus-visible:outline-3 focus-visible:outline-blue-700">
            <p id="workflow-delete-confirm" className="font-semibold text-red-950">
              {t.deleteConfirmHeading(current.name)}
            </p>
            <ul className="mt-2 list-disc pl-5 text-red-950">
              {t.deleteConsequences.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            {remove.isError && <Notice tone="error">{errorMessage(remove.error)}</Notice>}
            <div className="mt-4 flex flex-col gap-3 sm:flex-row">
              <button type="button" className={DANGER_BUTTON} disabled={remove.isPending} onClick={() => remove.mutate()}>
                {remove.isPending ? t.deleting : t.deleteConfirm(current.name)}
              </button>
              <Button variant="secondary" disabled={remove.isPending} onClick={() => setConfirming(false)}>
                {text.common.cancel}
              </Button>
            </div>
          </div>
        )}
      </Section>
    </>
  );
}
