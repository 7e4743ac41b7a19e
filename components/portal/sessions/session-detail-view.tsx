"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { LiveStatus } from "@/components/ui/notice";
import { Section } from "@/components/ui/section";
import type { SessionDetail } from "@/lib/sessions/session-detail";
import { DataTable } from "../data-table";
import { formatDate, portalFetch, queryKeys, text } from "../api";
import { useServerSnapshot } from "../server-snapshot";
import { actorText, checkDetails, checkName, checkStatusLabel, formatScore, statusLabel } from "./labels";
import { ReviewPanel } from "./review-panel";
import { StatusBadge } from "./status-badge";

const t = text.sessions;

function Facts({ rows }: { rows: Array<[string, React.ReactNode]> }) {
  return (
    <dl className="mt-2 grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="font-medium text-slate-700">{term}</dt>
          <dd className="break-all text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const span = (from: string | null, to: string | null) => (from && to ? t.duration(Date.parse(to) - Date.parse(from)) : t.notYet);

/**
 * One session: summary, the review panel while IN_REVIEW, checks with
 * scores, timings and the audit trail. Refetched after a decision, so the
 * new status and its audit row appear (and the kept images go).
 */
export function SessionDetailView({ appId, initial }: { appId: string; initial: SessionDetail }) {
  const id = initial.session.session_id;
  const [announcement, setAnnouncement] = useState("");
  useServerSnapshot(queryKeys.session(appId, id), initial);
  const detail = useQuery({
    queryKey: queryKeys.session(appId, id),
    queryFn: () => portalFetch<SessionDetail>("GET", `/api/portal/apps/${appId}/sessions/${id}`),
    initialData: initial,
  });
  const d = detail.data;
  const s = d.session;
  return (
    <div>
      <LiveStatus className="mt-2 font-medium text-green-800">{announcement}</LiveStatus>
      <Section title={t.summaryHeading} id="summary">
        <Facts
          rows={[
            [t.fields.sessionId, <code key="id" className="font-mono">{s.session_id}</code>],
            [t.fields.status, <StatusBadge key="status" status={s.status} />],
            [t.fields.decision, <code key="decision" className="font-mono">{d.decision}</code>],
            [t.fields.workflow, s.workflow.name],
            [t.fields.vendorData, s.vendor_data ?? t.none],
            [t.fields.svcId, s.svc_id ?? t.none],
          ]}
        />
      </Section>

      {s.status === "IN_REVIEW" && (
        <Section title={text.review.panelHeading} id="review">
          <div className="mt-4">
            <ReviewPanel
              appId={appId}
              item={d}
              headingLevel="h3"
              onDecided={(session) => setAnnouncement(text.review.decided(session.session_id, statusLabel(session.status)))}
              onCheckSettled={(check, status) => setAnnouncement(text.review.settle.settled(id, checkName(check), checkStatusLabel(status)))}
            />
          </div>
        </Section>
      )}

      <Section title={t.checksHeading} id="checks">
        <DataTable
          label={t.checksHeading}
          rows={d.checks}
          rowKey={(c) => c.type}
          empty={t.checksEmpty}
          minWidth="min-w-[44rem]"
          columns={[
            { header: t.checkColumns.check, cell: (c) => checkName(c.type) },
            { header: t.checkColumns.status, cell: (c) => <StatusBadge status={c.status} kind="check" /> },
            { header: t.checkColumns.score, align: "right", cell: (c) => ("score" in c ? formatScore(c.score) : t.none) },
            { header: t.checkColumns.details, cell: (c) => <span className="break-words">{checkDetails(c)}</span> },
            { header: t.checkColumns.recorded, nowrap: true, cell: (c) => (c.recorded_at ? formatDate(c.recorded_at) : t.notYet) },
            { header: t.checkColumns.attempts, align: "right", cell: (c) => String(c.attempts) },
          ]}
        />
      </Section>

      <Section title={t.timingsHeading} id="timings">
        <Facts
          rows={[
            [t.timings.created, formatDate(s.created_at)],
            [t.timings.started, s.started_at ? formatDate(s.started_at) : t.notYet],
            [t.timings.completed, s.completed_at ? formatDate(s.completed_at) : t.notYet],
            [t.timings.decided, s.decided_at ? formatDate(s.decided_at) : t.notYet],
            [t.timings.expires, formatDate(s.expires_at)],
            [t.timings.toComplete, span(s.started_at ?? s.created_at, s.completed_at)],
            [t.timings.toDecide, span(s.completed_at, s.decided_at)],
          ]}
        />
      </Section>

      <Section title={t.auditHeading} id="audit" description={t.auditIntro}>
        <DataTable
          label={t.auditHeading}
          rows={d.audit}
          rowKey={(a) => a.id}
          empty={t.auditEmpty}
          columns={[
            { header: t.auditColumns.when, nowrap: true, cell: (a) => formatDate(a.created_at) },
            { header: t.auditColumns.who, cell: (a) => <span className="break-all">{actorText(a.actor)}</span> },
            {
              header: t.auditColumns.action,
              cell: (a) =>
                a.action === "session.manual_decision"
                  ? t.manualDecision(statusLabel(String(a.data.from)), statusLabel(String(a.data.to)))
                  : a.action === "check.manual_review"
                    ? t.manualCheckReview(checkName(String(a.data.check)), checkStatusLabel(String(a.data.to)), String(a.data.reason))
                    : a.action,
            },
            { header: t.auditColumns.request, cell: (a) => <code className="font-mono text-xs">{a.request_id ?? t.none}</code> },
          ]}
        />
      </Section>
    </div>
  );
}
