"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Notice } from "@/components/ui/notice";
import { Section } from "@/components/ui/section";
import type { PortalRecoveryEntry } from "@/lib/portal/recovery-log";
import { errorMessage, formatDate, portalFetch, queryKeys, text } from "../api";
import { DataTable } from "../data-table";
import { StatusBadge } from "../sessions/status-badge";
import { useServerSnapshot } from "../server-snapshot";

const t = text.organization.recovery;
type RecoveryLog = { entries: PortalRecoveryEntry[] };

function Outcome({ entry }: { entry: PortalRecoveryEntry }) {
  if (entry.outcome === "not_eligible") return <span>{t.notEligible}</span>;
  return <StatusBadge status={entry.outcome} />;
}

/** A recovery session: a link to its page when it belongs to one of the organization's apps, else its id. */
function SessionCell({ entry }: { entry: PortalRecoveryEntry }) {
  if (!entry.session_id) return <span className="text-slate-700">{t.noSession}</span>;
  if (!entry.session_app_id) return <code className="break-all font-mono text-xs">{entry.session_id}</code>;
  return (
    <Link
      href={`/dashboard/apps/${entry.session_app_id}/sessions/${entry.session_id}`}
      aria-label={t.openSession(entry.session_id)}
      className="break-all font-mono text-xs font-semibold text-blue-800 underline underline-offset-2"
    >
      {entry.session_id}
    </Link>
  );
}

/** The organization's account recoveries, newest first: who, when, which variant, and the outcome. */
export function RecoveryLogPanel({ initial }: { initial: RecoveryLog }) {
  useServerSnapshot(queryKeys.recoveryLog, initial);
  const log = useQuery({
    queryKey: queryKeys.recoveryLog,
    queryFn: () => portalFetch<RecoveryLog>("GET", "/api/portal/organization/recovery"),
    initialData: initial,
  });
  return (
    <div>
      <p className="mt-1 text-slate-700">{t.intro}</p>
      {log.isError && <Notice tone="error">{errorMessage(log.error)}</Notice>}
      <Section title={t.listHeading} id="recoveries">
        <DataTable
          label={t.listHeading}
          rows={log.data.entries}
          rowKey={(e) => e.id}
          empty={t.empty}
          minWidth="min-w-[44rem]"
          columns={[
            { header: t.columns.when, nowrap: true, cell: (e) => formatDate(e.created_at) },
            { header: t.columns.who, cell: (e) => <span className="break-all">{e.email ?? e.member_id ?? t.unknownMember}</span> },
            { header: t.columns.variant, cell: (e) => t.variants[e.variant] ?? e.variant },
            { header: t.columns.outcome, cell: (e) => <Outcome entry={e} /> },
            { header: t.columns.session, cell: (e) => <SessionCell entry={e} /> },
          ]}
        />
      </Section>
    </div>
  );
}
