"use client";

import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { INPUT_CLASS } from "@/components/ui/field";
import { LiveStatus, Notice } from "@/components/ui/notice";
import { DELIVERY_STATES, type DeliveryState } from "@/lib/webhooks/kinds";
import { errorMessage, portalFetch, queryKeys, text } from "../api";
import { useServerSnapshot } from "../server-snapshot";
import { LoadMore } from "../load-more";
import { DataTable } from "../data-table";
import type { DeliveryPage, PresentedDelivery, PresentedWebhookEndpoint } from "./types";

const t = text.webhooks;

/** While a delivery is pending, the log is read again this often (react-query's refetchInterval). */
const PENDING_REFRESH_MS = 1000;
/** How much of an answer's first 1 KB the table shows (the whole excerpt is the cell's title). */
const EXCERPT_CHARS = 160;

/** Attempt times to the second, in one fixed form on the server and in the browser. */
function formatTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

function Attempts({ delivery }: { delivery: PresentedDelivery }) {
  return (
    <div className="min-w-[15rem]">
      {delivery.attempts.length === 0 ? (
        <p className="text-slate-700">{t.noAttemptsYet}</p>
      ) : (
        <ol className="space-y-2" aria-label={t.logColumns.attempts}>
          {delivery.attempts.map((a) => (
            <li key={a.number} data-testid="delivery-attempt">
              <p>
                <span className="font-medium">{t.attempt(a.number)}</span>: {t.outcomes[a.outcome] ?? a.outcome}, {t.statusCode(a.status_code)}
                {a.duration_ms !== null && `, ${t.latency(a.duration_ms)}`}
              </p>
              <p className="text-xs text-slate-700">
                <time dateTime={a.started_at}>{formatTime(a.started_at)}</time>
              </p>
              {a.response_snippet && (
                <p className="text-xs text-slate-800" title={a.response_snippet}>
                  {t.response}: <code className="break-all font-mono">{a.response_snippet.slice(0, EXCERPT_CHARS)}{a.response_snippet.length > EXCERPT_CHARS ? "…" : ""}</code>
                </p>
              )}
              {a.error && (
                <p className="text-xs text-red-800">
                  {t.error}: {a.error}
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
      {delivery.next_attempt_at && <p className="mt-2 text-xs font-medium text-slate-800">{t.nextRetry(formatTime(delivery.next_attempt_at))}</p>}
      {delivery.held && <p className="mt-2 text-xs font-medium text-amber-900">{t.held}</p>}
    </div>
  );
}

function EventCell({ delivery }: { delivery: PresentedDelivery }) {
  return (
    <div>
      <p>
        {delivery.event_type}
        {delivery.status && `, ${delivery.status}`}
      </p>
      <p>
        <code className="break-all font-mono text-xs">{delivery.event_id}</code>
      </p>
      <p className="mt-1 flex flex-wrap gap-1 text-xs">
        {delivery.test && <span className="rounded bg-amber-200 px-1.5 py-0.5 text-amber-950">{t.testBadge}</span>}
        {delivery.bad_signature && <span className="rounded bg-red-100 px-1.5 py-0.5 text-red-900">{t.kinds.bad_signature}</span>}
      </p>
    </div>
  );
}

const STATE_CLASS: Record<string, string> = { succeeded: "text-green-800", failed: "text-red-800", pending: "text-slate-800", cancelled: "text-slate-700" };

/** A delivery the worker will still attempt by itself (pending, its webhook not disabled): the log is read again while there is one. */
const awaited = (d: PresentedDelivery) => d.state === "pending" && !d.held;
const FORGERY_CLASS: Record<string, string> = { refused: "text-green-800", accepted: "text-red-800", unanswered: "text-slate-800" };

/**
 * A delivery's state; for the bad-signature test, what it shows about the
 * receiver instead: a receiver that answered 2xx to a forged signature
 * failed the test, although the delivery itself "succeeded".
 */
function StateCell({ delivery }: { delivery: PresentedDelivery }) {
  if (delivery.forgery) {
    return (
      <span className={`font-medium ${FORGERY_CLASS[delivery.forgery] ?? ""}`}>
        {t.forgery[delivery.forgery]}
        <span className="block text-xs font-normal text-slate-700">{t.states[delivery.state as DeliveryState] ?? delivery.state}</span>
      </span>
    );
  }
  return <span className={`font-medium ${STATE_CLASS[delivery.state] ?? ""}`}>{t.states[delivery.state as DeliveryState] ?? delivery.state}</span>;
}

/**
 * The delivery log: newest first, a page at a time (server cursor),
 * filtered on the server by webhook and state; every attempt of each
 * delivery; resend. While a delivery is pending (and not held by a disabled
 * webhook) it is read again every second until none is.
 */
export function DeliveryLog({ appId, webhooks, firstPage }: { appId: string; webhooks: PresentedWebhookEndpoint[]; firstPage: DeliveryPage }) {
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState({ webhookId: "", state: "" });
  const unfiltered = !filters.webhookId && !filters.state;
  useServerSnapshot(queryKeys.deliveries(appId, filters), unfiltered ? { pages: [firstPage], pageParams: [null] } : undefined);
  const log = useInfiniteQuery({
    queryKey: queryKeys.deliveries(appId, filters),
    queryFn: ({ pageParam }) => {
      const search = new URLSearchParams();
      if (pageParam) search.set("cursor", pageParam);
      if (filters.webhookId) search.set("webhook_id", filters.webhookId);
      if (filters.state) search.set("state", filters.state);
      const query = search.toString();
      return portalFetch<DeliveryPage>("GET", `/api/portal/apps/${appId}/webhooks/deliveries${query ? `?${query}` : ""}`);
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    initialData: unfiltered ? { pages: [firstPage], pageParams: [null] } : undefined,
    refetchInterval: (query) =>
      query.state.data?.pages.some((p) => p.deliveries.some(awaited)) ? PENDING_REFRESH_MS : false,
  });
  const resend = useMutation({
    mutationFn: (delivery: PresentedDelivery) =>
      portalFetch<{ delivery_id: string; event_id: string }>("POST", `/api/portal/apps/${appId}/webhooks/deliveries/${delivery.delivery_id}/resend`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.allDeliveries(appId) }),
  });
  const deliveries = log.data?.pages.flatMap((p) => p.deliveries) ?? [];
  const pending = deliveries.some(awaited);
  return (
    <>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        <FilterSelect
          id="delivery-filter-webhook"
          label={t.filterWebhook}
          value={filters.webhookId}
          onChange={(webhookId) => setFilters({ ...filters, webhookId })}
          options={[{ value: "", label: t.allWebhooks }, ...webhooks.map((w) => ({ value: w.webhook_id, label: w.url }))]}
        />
        <FilterSelect
          id="delivery-filter-state"
          label={t.filterState}
          value={filters.state}
          onChange={(state) => setFilters({ ...filters, state })}
          options={[{ value: "", label: t.allStates }, ...DELIVERY_STATES.map((state: DeliveryState) => ({ value: state, label: t.states[state] }))]}
        />
      </div>
      {resend.isError && <Notice tone="error">{errorMessage(resend.error)}</Notice>}
      <LiveStatus className="mt-2 text-green-800">{resend.isSuccess ? t.resent(resend.data.event_id) : ""}</LiveStatus>
      {log.isPending ? (
        <p className="mt-2 text-slate-700">{text.common.loading}</p>
      ) : (
        <DataTable
          label={t.logHeading}
          rows={deliveries}
          rowKey={(d) => d.delivery_id}
          empty={t.logEmpty}
          minWidth="min-w-[52rem]"
          columns={[
            { header: t.logColumns.created, cell: (d) => <time dateTime={d.created_at}>{formatTime(d.created_at)}</time> },
            { header: t.logColumns.event, cell: (d) => <EventCell delivery={d} /> },
            { header: t.logColumns.webhook, cell: (d) => <code className="break-all font-mono text-xs">{d.url}</code> },
            { header: t.logColumns.state, cell: (d) => <StateCell delivery={d} /> },
            { header: t.logColumns.attempts, cell: (d) => <Attempts delivery={d} /> },
            {
              header: t.logColumns.actions,
              // A deleted webhook's deliveries cannot be sent again.
              cell: (d) =>
                d.webhook_id === null ? null : (
                  <Button
                    variant="secondary"
                    className="min-h-10 px-3 py-1.5 text-sm"
                    aria-label={t.resendLabel(d.event_id)}
                    disabled={resend.isPending}
                    onClick={() => resend.mutate(d)}
                  >
                    {t.resend}
                  </Button>
                ),
            },
          ]}
        />
      )}
      <LiveStatus className="mt-2 text-sm text-slate-700">{pending ? t.refreshing : ""}</LiveStatus>
      {log.isError && !log.isFetchNextPageError && <Notice tone="error">{errorMessage(log.error)}</Notice>}
      <LoadMore query={log} />
    </>
  );
}

/** One of the log's server-side filters: a labelled select. */
function FilterSelect({
  id,
  label,
  value,
  onChange,
  options,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
}) {
  return (
    <div>
      <label htmlFor={id} className="block font-medium text-slate-900">
        {label}
      </label>
      <select id={id} className={INPUT_CLASS} value={value} onChange={(event) => onChange(event.currentTarget.value)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
