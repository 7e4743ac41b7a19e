"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { Section } from "@/components/ui/section";
import type { LedgerCause, PresentedLedgerEntry } from "@/lib/billing/list-ledger";
import { errorMessage, formatDate, formatMoney, portalFetch, queryKeys, text } from "../api";

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

/** Balance, top-up (when configured), and the ledger, a page at a time (server cursor). */
export function WalletPanel({ firstPage, topUpConfigured }: { firstPage: LedgerPage; topUpConfigured: boolean }) {
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
        <p className="mt-2 text-3xl font-semibold text-slate-900" data-testid="wallet-balance">
          {formatMoney(head.balance, head.currency)}
        </p>
        {/*
          TODO(stripe): when STRIPE_SECRET_KEY is set, this button starts a top-up: a POST to a portal
          route that calls the Stripe Checkout domain function of lib/billing/stripe-*.ts (built
          separately; its name comes with it) with the organization and the amount, then sends the
          browser to the returned Checkout URL. The wallet is credited only by the signed
          `checkout.session.completed` webhook. No Stripe code lives in the portal.
        */}
        <Button className="mt-4" disabled aria-describedby="top-up-status">
          {t.topUp}
        </Button>
        <p id="top-up-status" className="mt-2 text-sm text-slate-700">
          {topUpConfigured ? t.topUpComing : t.topUpNotConfigured}
        </p>
      </Section>
      <Section title={t.ledgerHeading} id="ledger">
        {entries.length === 0 ? (
          <p className="mt-2 text-slate-700">{t.empty}</p>
        ) : (
          <ScrollRegion label={text.common.table(t.ledgerHeading)}>
            <table className="w-full min-w-[36rem] text-left text-sm">
              <thead>
                <tr className="border-b border-slate-300 text-slate-700">
                  <th scope="col" className="py-2 pr-3 font-semibold">{t.columns.date}</th>
                  <th scope="col" className="py-2 pr-3 font-semibold">{t.columns.cause}</th>
                  <th scope="col" className="py-2 pr-3 text-right font-semibold">{t.columns.amount}</th>
                  <th scope="col" className="py-2 text-right font-semibold">{t.columns.balance}</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((e) => (
                  <tr key={e.id} className="border-b border-slate-200">
                    <td className="py-2 pr-3 whitespace-nowrap">{formatDate(e.created_at)}</td>
                    <td className="py-2 pr-3">{causeText(e.cause)}</td>
                    <td className={`py-2 pr-3 text-right whitespace-nowrap ${e.amount < 0 ? "text-red-800" : "text-green-800"}`}>{formatMoney(e.amount, head.currency)}</td>
                    <td className="py-2 text-right whitespace-nowrap">{formatMoney(e.balance_after, head.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
        {ledger.isFetchNextPageError && <Notice tone="error">{errorMessage(ledger.error)}</Notice>}
        {ledger.hasNextPage && (
          <Button variant="secondary" className="mt-4" disabled={ledger.isFetchingNextPage} onClick={() => void ledger.fetchNextPage()}>
            {ledger.isFetchingNextPage ? text.common.loading : text.common.loadMore}
          </Button>
        )}
      </Section>
    </div>
  );
}
