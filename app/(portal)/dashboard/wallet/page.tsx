import type { Metadata } from "next";
import { WalletPanel } from "@/components/portal/wallet/wallet-panel";
import { listLedgerEntries } from "@/lib/billing/list-ledger";
import { isTopUpConfigured } from "@/lib/billing/top-up";
import { messagesFor, DEFAULT_LOCALE } from "@/lib/i18n";
import { requireDeveloper } from "@/lib/portal/page-access";

const t = messagesFor(DEFAULT_LOCALE).portal;
export const metadata: Metadata = { title: `${t.wallet.title} · ${t.productName}` };

export default async function WalletPage() {
  const developer = await requireDeveloper("/dashboard/wallet");
  const firstPage = await listLedgerEntries(developer.organizationId);
  return (
    <>
      <h1 className="text-2xl font-semibold text-slate-900">{t.wallet.title}</h1>
      <WalletPanel firstPage={firstPage} topUpConfigured={isTopUpConfigured()} />
    </>
  );
}
