"use client";

import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { buttonClass } from "@/components/ui/button";
import { INPUT_CLASS } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { Section } from "@/components/ui/section";
import type { WorkflowPage } from "@/lib/workflows/list-workflows-page";
import type { Feature } from "@/lib/workflows/schemas";
import { errorMessage, formatDate, portalFetch, queryKeys, text } from "../api";
import { useServerSnapshot } from "../server-snapshot";
import { LoadMore } from "../load-more";
import { DataTable } from "../data-table";

const t = text.workflows;
const STATUSES = ["all", "active", "inactive"] as const;
type StatusFilter = (typeof STATUSES)[number];

/**
 * An app's workflows, a page at a time (server cursor), filtered on the
 * server by status; each name opens its builder. After a delete the page
 * says which workflow went.
 */
export function WorkflowsPanel({ appId, firstPage }: { appId: string; firstPage: WorkflowPage }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<StatusFilter>("all");
  const base = `/dashboard/apps/${appId}/workflows`;
  // Set by the delete just before coming here (a client-side navigation); read once.
  const [deletedName] = useState(() => queryClient.getQueryData<string>(queryKeys.workflowDeleted(appId)) ?? null);
  useEffect(() => {
    queryClient.removeQueries({ queryKey: queryKeys.workflowDeleted(appId) });
  }, [queryClient, appId]);
  useServerSnapshot(queryKeys.workflowList(appId, status), status === "all" ? { pages: [firstPage], pageParams: [null] } : undefined);
  const list = useInfiniteQuery({
    queryKey: queryKeys.workflowList(appId, status),
    queryFn: ({ pageParam }) => {
      const query = new URLSearchParams();
      if (status !== "all") query.set("status", status);
      if (pageParam) query.set("cursor", pageParam);
      const qs = query.toString();
      return portalFetch<WorkflowPage>("GET", `/api/portal/apps/${appId}/workflows${qs ? `?${qs}` : ""}`);
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    initialData: status === "all" ? { pages: [firstPage], pageParams: [null] } : undefined,
  });
  const workflows = list.data?.pages.flatMap((p) => p.workflows) ?? [];
  return (
    <div>
      <p className="mt-1 text-slate-700">{t.intro}</p>
      {deletedName && <Notice tone="success">{t.deleted(deletedName)}</Notice>}
      <p className="mt-4">
        <Link href={`${base}/new`} className={buttonClass("primary")}>
          {t.newWorkflow}
        </Link>
      </p>
      <Section title={t.listHeading} id="workflows">
        <div className="mt-3 sm:max-w-xs">
          <label htmlFor="workflow-status-filter" className="block font-medium text-slate-900">
            {t.filterLabel}
          </label>
          <select id="workflow-status-filter" className={INPUT_CLASS} value={status} onChange={(event) => setStatus(event.currentTarget.value as StatusFilter)}>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {t.filters[s]}
              </option>
            ))}
          </select>
        </div>
        {list.isError && !list.isFetchNextPageError && <Notice tone="error">{errorMessage(list.error)}</Notice>}
        {list.isPending ? (
          <p className="mt-2 text-slate-700">{text.common.loading}</p>
        ) : (
          <DataTable
            label={t.listHeading}
            rows={workflows}
            rowKey={(w) => w.id}
            empty={status === "all" ? t.empty : t.emptyFiltered}
            columns={[
              {
                header: t.columns.name,
                cell: (w) => (
                  <Link href={`${base}/${w.id}`} className="font-semibold text-blue-800 underline underline-offset-2">
                    {w.name}
                  </Link>
                ),
              },
              { header: t.columns.checks, cell: (w) => w.features.map((f) => t.features[f as Feature] ?? f).join(", ") },
              {
                header: t.columns.status,
                nowrap: true,
                cell: (w) => (w.is_active ? t.active : <span className="text-slate-700">{t.inactive}</span>),
              },
              { header: t.columns.id, cell: (w) => <code className="break-all font-mono text-xs">{w.id}</code> },
              { header: t.columns.updated, nowrap: true, cell: (w) => formatDate(w.updated_at) },
            ]}
          />
        )}
        <LoadMore query={list} />
      </Section>
    </div>
  );
}
