import type { Metadata } from "next";
import { BillingPanel } from "@/components/portal/organization/billing-panel";
import { messagesFor, DEFAULT_LOCALE } from "@/lib/i18n";
import { readBilling } from "@/lib/org/billing/read-billing";
import { requireDeveloper } from "@/lib/portal/page-access";

const t = messagesFor(DEFAULT_LOCALE).portal;
export const metadata: Metadata = { title: `${t.organization.billing.title} · ${t.productName}` };

/** Seats and billing of the organization (readBilling, as GET /api/sdk/billing answers). */
export default async function BillingPage() {
  const developer = await requireDeveloper("/dashboard/billing");
  const billing = await readBilling({ organizationId: developer.organizationId });
  return (
    <>
      <h1 className="text-2xl font-semibold text-slate-900">{t.organization.billing.title}</h1>
      <BillingPanel initial={billing} />
    </>
  );
}
