"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { presentSession } from "@/lib/sessions/present";
import { DataTable } from "../data-table";
import { formatDate, portalFetch, queryKeys, text } from "../api";
import { useServerSnapshot } from "../server-snapshot";
import { LoadMore } from "../load-more";
import { StatusBadge } from "./status-badge";

const t = text.sessions;

export type PresentedSession = ReturnType<typeof presentSession>;
export type SessionsPage = { sessions: PresentedSession[]; next_cursor: string | null };
export type SessionsFilter = { status?: string; vendor_data?: string };

function listUrl(appId: string, filter: SessionsFilter, cursor: string | null): string {
  const query = new URLSearchParams();
  if (filter.status) query.set("status", filter.status);
  if (filter.vendor_data) query.set("vendor_data", filter.vendor_data);
  if (cursor) query.set("cursor", cursor);
  const qs = query.toString();
  return `/api/portal/apps/${appId}/sessions${qs ? `?${qs}` : ""}`;
}

/** The filtered sessions, newest first: the server's first page, then "Load more" with the server's cursor. */
export function SessionsList({ appId, filter, firstPage }: { appId: string; filter: SessionsFilter; firstPage: SessionsPage }) {
  useServerSnapshot(queryKeys.sessionList(appId, filter), { pages: [firstPage], pageParams: [null] });
  const list = useInfiniteQuery({
    queryKey: queryKeys.sessionList(appId, filter),
    queryFn: ({ pageParam }) => portalFetch<SessionsPage>("GET", listUrl(appId, filter, pageParam)),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    initialData: { pages: [firstPage], pageParams: [null] },
  });
  const sessions = list.data.pages.flatMap((p) => p.sessions);
  const filtered = Boolean(filter.status || filter.vendor_data);
  return (
    <>
      <DataTable
        label={t.listHeading}
        rows={sessions}
        rowKey={(s) => s.session_id}
        empty={filtered ? t.emptyFiltered : t.empty}
        minWidth="min-w-[44rem]"
        columns={[
          {
            header: t.columns.session,
            cell: (s) => (
              <Link
                href={`/dashboard/apps/${appId}/sessions/${s.session_id}`}
                aria-label={t.open(s.session_id)}
                className="rounded font-mono font-semibold text-blue-800 underline focus-visible:outline focus-visible:outline-3 focus-visible:outline-blue-700"
              >
                {s.session_id.slice(0, 8)}
              </Link>
            ),
          },
          { header: t.columns.status, cell: (s) => <StatusBadge status={s.status} /> },
          { header: t.columns.vendorData, cell: (s) => <span className="break-all">{s.vendor_data ?? t.none}</span> },
          { header: t.columns.workflow, cell: (s) => s.workflow.name },
          { header: t.columns.created, nowrap: true, cell: (s) => formatDate(s.created_at) },
          { header: t.columns.decided, nowrap: true, cell: (s) => (s.decided_at ? formatDate(s.decided_at) : t.none) },
        ]}
      />
      <LoadMore query={list} />
    </>
  );
}
