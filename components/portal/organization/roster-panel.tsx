"use client";

import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { INPUT_CLASS } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { Section } from "@/components/ui/section";
import type { RosterMember, RosterPage } from "@/lib/portal/roster";
import { errorMessage, formatDate, PortalApiError, portalFetch, queryKeys, text } from "../api";
import { ConfirmDialog } from "../confirm-dialog";
import { DataTable } from "../data-table";
import { LoadMore } from "../load-more";
import { useServerSnapshot } from "../server-snapshot";
import { AddManyMembersForm, AddMemberForm, InsufficientFundsNotice } from "./add-members";
import { MemberStatus } from "./member-status";

const t = text.organization.roster;
const FILTERS = ["all", "invited", "link_sent", "active", "deactivated"] as const;
type Filter = (typeof FILTERS)[number];
type Action = "invite" | "deactivate" | "reactivate" | "remove";
type Asked = { action: Action; member: RosterMember };
type Outcome =
  | { action: "invite"; email: string; link: string | null; notified: boolean }
  | { action: "deactivate" | "reactivate"; email: string; member: RosterMember }
  | { action: "remove"; email: string; removed: boolean };

const SMALL = "min-h-10 px-3 py-1.5 text-sm";
const base = "/api/portal/organization/members";

/** One action on one member through the portal's routes (the organization API's own functions behind them). */
async function perform({ action, member }: Asked): Promise<Outcome> {
  const path = `${base}/${encodeURIComponent(member.member_id)}`;
  switch (action) {
    case "invite": {
      const d = await portalFetch<{ activation_link: string | null; notified: boolean }>("POST", `${path}/invite`);
      return { action, email: member.email, link: d.activation_link, notified: d.notified };
    }
    case "deactivate":
    case "reactivate": {
      const d = await portalFetch<{ member: RosterMember }>("POST", `${path}/${action}`);
      return { action, email: member.email, member: d.member };
    }
    case "remove": {
      const d = await portalFetch<{ removed?: true; already_removed?: true }>("DELETE", path);
      return { action, email: member.email, removed: Boolean(d.removed) };
    }
  }
}

/** Why an action was refused: the spec's 409s and 429 in words, 402 with the way to the wallet. */
function ActionError({ error, email }: { error: unknown; email: string }) {
  const code = error instanceof PortalApiError ? error.code : "";
  if (code === "insufficient_funds") return <InsufficientFundsNotice />;
  const message =
    code === "already_active" ? t.errors.already_active(email) : code === "deactivated" ? t.errors.deactivated(email) : code === "rate_limited" ? t.errors.rate_limited : errorMessage(error);
  return <Notice tone="error">{message}</Notice>;
}

function OutcomeNotice({ outcome }: { outcome: Outcome }) {
  switch (outcome.action) {
    case "invite":
      return (
        <Notice tone="success" title={t.invited(outcome.email)}>
          {outcome.notified && <p>{t.invitedEmailed}</p>}
          {outcome.link && (
            <div className="mt-2">
              <p className="font-medium">{t.activationLink}</p>
              <p className="mt-1 flex flex-wrap items-center gap-2">
                <code className="break-all rounded bg-white px-2 py-1 font-mono text-sm" data-testid="activation-link">
                  {outcome.link}
                </code>
                <CopyButton value={outcome.link} label={t.copyLink} copyText={text.common.copy} copiedText={text.common.copied} />
              </p>
            </div>
          )}
        </Notice>
      );
    case "deactivate":
      return <Notice tone="success">{t.deactivated(outcome.email)}</Notice>;
    case "reactivate":
      return <Notice tone="success">{t.reactivated(outcome.email, text.organization.statuses[outcome.member.status] ?? outcome.member.status)}</Notice>;
    case "remove":
      return <Notice tone="success">{outcome.removed ? t.removed(outcome.email) : t.alreadyRemoved(outcome.email)}</Notice>;
  }
}

/** The actions a member's status allows (spec 3.2): invite while not active and not deactivated, reactivate once deactivated, remove always. */
function actionsFor(member: RosterMember): Action[] {
  if (member.status === "deactivated") return ["reactivate", "remove"];
  if (member.status === "active") return ["deactivate", "remove"];
  return ["invite", "deactivate", "remove"];
}

const actionText = (action: Action, member: RosterMember) =>
  action === "invite" ? (member.status === "link_sent" ? t.reinvite : t.invite) : action === "deactivate" ? t.deactivate : action === "reactivate" ? t.reactivate : t.remove;

/**
 * The organization's roster: add one member or paste many, the members
 * (every role, newest first, 100 at a time with "Load more", filtered by
 * status on the server) and, on each, invite / deactivate / reactivate /
 * remove behind a confirmation that says what it does.
 */
export function RosterPanel({ firstPage }: { firstPage: RosterPage }) {
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<Filter>("all");
  const [asked, setAsked] = useState<Asked | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [failure, setFailure] = useState<{ error: unknown; email: string } | null>(null);
  useServerSnapshot(queryKeys.rosterList("all"), { pages: [firstPage], pageParams: [null] });
  const list = useInfiniteQuery({
    queryKey: queryKeys.rosterList(filter),
    queryFn: ({ pageParam }) => {
      const query = new URLSearchParams();
      if (filter !== "all") query.set("status", filter);
      if (pageParam) query.set("cursor", pageParam);
      const qs = query.toString();
      return portalFetch<RosterPage>("GET", `${base}${qs ? `?${qs}` : ""}`);
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    initialData: filter === "all" ? { pages: [firstPage], pageParams: [null] } : undefined,
  });
  const act = useMutation({
    mutationFn: perform,
    onMutate: () => {
      setOutcome(null);
      setFailure(null);
    },
    onSuccess: (done) => setOutcome(done),
    onError: (error, variables) => setFailure({ error, email: variables.member.email }),
    onSettled: () => {
      setAsked(null);
      void queryClient.invalidateQueries({ queryKey: queryKeys.roster });
      void queryClient.invalidateQueries({ queryKey: queryKeys.billing });
    },
  });
  const members = list.data?.pages.flatMap((p) => p.members) ?? [];
  const confirm = asked ? t.confirm[asked.action] : null;
  return (
    <div>
      <p className="mt-1 text-slate-700">{t.intro}</p>
      <Section title={t.addOneHeading} id="add-member" description={t.addOneIntro}>
        <AddMemberForm />
      </Section>
      <Section title={t.addManyHeading} id="add-members" description={t.addManyIntro}>
        <AddManyMembersForm />
      </Section>
      <Section title={t.listHeading} id="members">
        <div className="mt-3 sm:max-w-xs">
          <label htmlFor="roster-status-filter" className="block font-medium text-slate-900">
            {t.filterLabel}
          </label>
          <select id="roster-status-filter" className={INPUT_CLASS} value={filter} onChange={(event) => setFilter(event.currentTarget.value as Filter)}>
            {FILTERS.map((f) => (
              <option key={f} value={f}>
                {t.filters[f]}
              </option>
            ))}
          </select>
        </div>
        {outcome && <OutcomeNotice outcome={outcome} />}
        {failure && <ActionError error={failure.error} email={failure.email} />}
        {list.isError && !list.isFetchNextPageError && <Notice tone="error">{errorMessage(list.error)}</Notice>}
        {list.isPending ? (
          <p className="mt-2 text-slate-700">{text.common.loading}</p>
        ) : (
          <DataTable
            label={t.listHeading}
            rows={members}
            rowKey={(m) => m.member_id}
            empty={filter === "all" ? t.empty : t.emptyFiltered}
            minWidth="min-w-[48rem]"
            columns={[
              { header: t.columns.email, cell: (m) => <span className="break-all">{m.email}</span> },
              { header: t.columns.name, cell: (m) => [m.first_name, m.last_name].filter(Boolean).join(" ") || "—" },
              { header: t.columns.role, nowrap: true, cell: (m) => text.organization.roles[m.role] ?? m.role },
              { header: t.columns.status, nowrap: true, cell: (m) => <MemberStatus status={m.status} /> },
              { header: t.columns.added, nowrap: true, cell: (m) => formatDate(m.created_at) },
              {
                header: t.columns.actions,
                cell: (m) => (
                  <div className="flex flex-wrap gap-2">
                    {actionsFor(m).map((action) => (
                      <Button
                        key={action}
                        variant="secondary"
                        className={SMALL}
                        aria-label={t.actionLabel(actionText(action, m), m.email)}
                        disabled={act.isPending}
                        onClick={() => setAsked({ action, member: m })}
                      >
                        {actionText(action, m)}
                      </Button>
                    ))}
                  </div>
                ),
              },
            ]}
          />
        )}
        <LoadMore query={list} />
      </Section>
      {asked && confirm && (
        <ConfirmDialog
          heading={confirm.heading(asked.member.email)}
          consequences={confirm.consequences}
          confirmLabel={confirm.button(asked.member.email)}
          pendingLabel={confirm.pending}
          pending={act.isPending}
          danger={asked.action === "deactivate" || asked.action === "remove"}
          onCancel={() => setAsked(null)}
          onConfirm={() => act.mutate(asked)}
        />
      )}
    </div>
  );
}
