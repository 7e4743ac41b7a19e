"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { Section } from "@/components/ui/section";
import type { LedgerCause, PresentedLedgerEntry } from "@/lib/billing/list-ledger";
import { WALLET_PAGE_PATH, type TopUpReturn } from "@/lib/portal/public-constants";
import { formatDate, formatMoney, portalFetch, queryKeys, text } from "../api";
import { useServerSnapshot } from "../server-snapshot";
import { LoadMore } from "../load-more";
import { DataTable } from "../data-table";
import { TopUpForm, type TopUpBounds } from "./top-up-form";

const t = text.wallet;

export type LedgerPage = { balance: number; currency: string; entries: PresentedLedgerEntry[]; next_cursor: string | null };

function causeText(cause: LedgerCause): string {
  switch (cause.kind) {
    case "welcome_credit":
      return t.causes.welcome_credit;
    case "check_charge":
      return `${t.causes.check_charge(cause.check)}, ${t.session(cause.session_id)}`;
    default:
      return cause.description && cause.kind !== "top_up" ? `${t.causes[cause.kind]}: ${cause.description}` : t.causes[cause.kind];
  }
}

/**
 * Back from Stripe Checkout: what happened, and that the webhook (not this
 * page) credits the wallet. The notice stays while the page is open; the
 * address loses its `?top_up=...&session_id=...` (Next's router follows
 * `history.replaceState`), so reloading shows the wallet as it now is.
 */
function TopUpReturnNotice({ topUpReturn }: { topUpReturn: TopUpReturn }) {
  useEffect(() => {
    window.history.replaceState(null, "", WALLET_PAGE_PATH);
  }, []);
  return topUpReturn === "success" ? (
    <Notice tone="info" title={t.topUpReturnedSuccess}>
      {t.topUpReturnedSuccessBody}
    </Notice>
  ) : (
    <Notice tone="info">{t.topUpReturnedCancelled}</Notice>
  );
}

/**
 * Balance, top-up (the form when Stripe is configured, else the disabled
 * button and why), what happened on a return from Stripe Checkout, and the
 * ledger, a page at a time (server cursor).
 */
export function WalletPanel({
  firstPage,
  topUp,
  topUpReturn,
}: {
  firstPage: LedgerPage;
  topUp: TopUpBounds | null;
  topUpReturn: TopUpReturn | null;
}) {
  useServerSnapshot(queryKeys.wallet, { pages: [firstPage], pageParams: [null] });
  const ledger = useInfiniteQuery({
    queryKey: queryKeys.wallet,
    queryFn: ({ pageParam }) => portalFetch<LedgerPage>("GET", `/api/portal/wallet${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ""}`),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    initialData: { pages: [firstPage], pageParams: [null] },
  });
  const pages = ledger.data.pages;
  const head = pages[0]!;
  const entries = pages.flatMap((p) => p.entries);
  return (
    <div>
      <Section title={t.balance} id="balance">
        {topUpReturn && <TopUpReturnNotice topUpReturn={topUpReturn} />}
        <p className="mt-2 text-3xl font-semibold text-slate-900" data-testid="wallet-balance">
          {formatMoney(head.balance, head.currency)}
        </p>
        {topUp ? (
          <TopUpForm minAmount={topUp.minAmount} maxAmount={topUp.maxAmount} />
        ) : (
          <>
            <Button className="mt-4" disabled aria-describedby="top-up-status">
              {t.topUp}
            </Button>
            <p id="top-up-status" className="mt-2 text-sm text-slate-700">
              {t.topUpNotConfigured}
            </p>
          </>
        )}
      </Section>
      <Section title={t.ledgerHeading} id="ledger">
        <DataTable
          label={t.ledgerHeading}
          rows={entries}
          rowKey={(e) => e.id}
          empty={t.empty}
          columns={[
            { header: t.columns.date, nowrap: true, cell: (e) => formatDate(e.created_at) },
            { header: t.columns.cause, cell: (e) => causeText(e.cause) },
            {
              header: t.columns.amount,
              align: "right",
              nowrap: true,
              cellClassName: (e) => (e.amount < 0 ? "text-red-800" : "text-green-800"),
              cell: (e) => formatMoney(e.amount, head.currency),
            },
            { header: t.columns.balance, align: "right", nowrap: true, cell: (e) => formatMoney(e.balance_after, head.currency) },
          ]}
        />
        <LoadMore query={ledger} />
      </Section>
    </div>
  );
}
