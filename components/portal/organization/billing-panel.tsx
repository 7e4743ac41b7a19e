"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Notice } from "@/components/ui/notice";
import { Section } from "@/components/ui/section";
import type { readBilling } from "@/lib/org/billing/read-billing";
import { WALLET_PAGE_PATH } from "@/lib/portal/public-constants";
import { errorMessage, formatDate, formatMoney, portalFetch, queryKeys, text } from "../api";
import { DataTable } from "../data-table";
import { useServerSnapshot } from "../server-snapshot";

const t = text.organization.billing;
export type Billing = Awaited<ReturnType<typeof readBilling>>;

const LINK = "font-semibold text-blue-800 underline underline-offset-2";
const WALLET_LINK = "font-semibold underline underline-offset-2";

function Fact({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="border-b border-slate-200 py-2 sm:grid sm:grid-cols-[16rem_1fr] sm:gap-4">
      <dt className="font-medium text-slate-700">{label}</dt>
      <dd className="text-slate-900" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

const STATUS_TONES: Record<string, string> = {
  trialing: "bg-blue-100 text-blue-950",
  active: "bg-green-100 text-green-900",
  past_due: "bg-red-100 text-red-900",
};

/**
 * Seats and billing of the organization, as `GET /api/sdk/billing` answers
 * (readBilling): the subscription (status, trial end, price, period end),
 * the seats and the estimated next charge, the wallet balance, and the
 * invoices, newest first. Past due says how to pay: top up the wallet.
 */
export function BillingPanel({ initial }: { initial: Billing }) {
  useServerSnapshot(queryKeys.billing, initial);
  const billing = useQuery({
    queryKey: queryKeys.billing,
    queryFn: () => portalFetch<Billing>("GET", "/api/portal/organization/billing"),
    initialData: initial,
  });
  const b = billing.data;
  const sub = b.subscription;
  const openInvoices = b.invoices.filter((i) => i.status === "open").length;
  return (
    <div>
      <p className="mt-1 text-slate-700">{t.intro}</p>
      {billing.isError && <Notice tone="error">{errorMessage(billing.error)}</Notice>}
      {sub?.status === "past_due" && (
        <Notice tone="error" live="off" title={t.pastDueTitle}>
          <p>{t.pastDue}</p>
          <p className="mt-2">
            <Link href={WALLET_PAGE_PATH} className={WALLET_LINK}>
              {t.topUpLink}
            </Link>
          </p>
        </Notice>
      )}
      {sub && sub.status !== "past_due" && openInvoices > 0 && (
        <Notice tone="warning" live="off">
          {t.openInvoices(openInvoices)}{" "}
          <Link href={WALLET_PAGE_PATH} className={WALLET_LINK}>
            {t.topUpLink}
          </Link>
        </Notice>
      )}
      <Section title={t.subscriptionHeading} id="subscription">
        {!sub && <p className="mt-2 text-slate-700">{t.noSubscription}</p>}
        <dl className="mt-2">
          {sub && (
            <>
              <Fact label={t.status} testId="subscription-status">
                <span className={`inline-block rounded-full px-2 py-0.5 text-sm font-medium ${STATUS_TONES[sub.status] ?? ""}`}>{t.statuses[sub.status] ?? sub.status}</span>
              </Fact>
              <Fact label={t.plan}>{sub.plan}</Fact>
              <Fact label={sub.in_trial ? t.trialEnds : t.trialEnded} testId="trial-ends">
                {formatDate(sub.trial_ends_at)}
              </Fact>
            </>
          )}
          <Fact label={t.seats} testId="seats">
            {b.seats}
          </Fact>
          {sub && <Fact label={t.pricePerSeat}>{formatMoney(sub.price_per_seat, b.currency)}</Fact>}
          <Fact label={t.estimatedNextCharge} testId="estimated-next-charge">
            {formatMoney(b.estimated_next_charge, b.currency)}
            <span className="block text-sm text-slate-600">{t.estimatedNote}</span>
          </Fact>
          {sub && <Fact label={t.currentPeriodEnd}>{formatDate(sub.current_period_end)}</Fact>}
          <Fact label={t.balance} testId="billing-balance">
            {formatMoney(b.balance, b.currency)}{" "}
            <Link href={WALLET_PAGE_PATH} className={LINK}>
              {t.topUpLink}
            </Link>
          </Fact>
        </dl>
      </Section>
      <Section title={t.invoicesHeading} id="invoices">
        <DataTable
          label={t.invoicesHeading}
          rows={b.invoices}
          rowKey={(i) => i.period}
          empty={t.invoicesEmpty}
          columns={[
            { header: t.columns.period, cell: (i) => t.period(formatDate(i.period_start), formatDate(i.period_end)) },
            { header: t.columns.seats, align: "right", cell: (i) => i.seats },
            { header: t.columns.amount, align: "right", nowrap: true, cell: (i) => formatMoney(i.amount, b.currency) },
            {
              header: t.columns.status,
              nowrap: true,
              cell: (i) => <span className={i.status === "open" ? "font-semibold text-red-800" : ""}>{t.invoiceStatuses[i.status] ?? i.status}</span>,
            },
            { header: t.columns.created, nowrap: true, cell: (i) => formatDate(i.created_at) },
          ]}
        />
      </Section>
    </div>
  );
}
