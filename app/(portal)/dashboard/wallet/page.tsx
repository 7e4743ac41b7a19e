import type { Metadata } from "next";
import { WalletPanel } from "@/components/portal/wallet/wallet-panel";
import { listLedgerEntries } from "@/lib/billing/list-ledger";
import { centsToAmount } from "@/lib/billing/money";
import { isTopUpConfigured } from "@/lib/billing/stripe";
import { TOP_UP_MAX_CENTS, TOP_UP_MIN_CENTS } from "@/lib/billing/top-up-amount";
import { messagesFor, DEFAULT_LOCALE } from "@/lib/i18n";
import { requireDeveloper } from "@/lib/portal/page-access";
import { TOP_UP_RETURN_PARAM, TOP_UP_RETURNS, WALLET_PAGE_PATH, type TopUpReturn } from "@/lib/portal/public-constants";

const t = messagesFor(DEFAULT_LOCALE).portal;
export const metadata: Metadata = { title: `${t.wallet.title} · ${t.productName}` };

/** Stripe Checkout's return to this page (`?top_up=success|cancelled`), or null. */
function topUpReturnOf(value: string | string[] | undefined): TopUpReturn | null {
  return TOP_UP_RETURNS.find((r) => r === value) ?? null;
}

export default async function WalletPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const developer = await requireDeveloper(WALLET_PAGE_PATH);
  const [firstPage, params] = await Promise.all([listLedgerEntries(developer.organizationId), searchParams]);
  const topUp = isTopUpConfigured() ? { minAmount: centsToAmount(TOP_UP_MIN_CENTS), maxAmount: centsToAmount(TOP_UP_MAX_CENTS) } : null;
  return (
    <>
      <h1 className="text-2xl font-semibold text-slate-900">{t.wallet.title}</h1>
      <WalletPanel firstPage={firstPage} topUp={topUp} topUpReturn={topUpReturnOf(params[TOP_UP_RETURN_PARAM])} />
    </>
  );
}
