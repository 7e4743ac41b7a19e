import type { Db, Tx } from "@/lib/db/client";

/** How long a seat invoice may stay open before the organization is past due. */
export const GRACE_DAYS = 7;
const GRACE_MS = GRACE_DAYS * 86_400_000;

/** The grace rule: an invoice open for more than 7 days since it was written makes its organization past due. */
export function isPastDue(oldestOpenInvoiceCreatedAt: Date | null | undefined, at: Date): boolean {
  return !!oldestOpenInvoiceCreatedAt && at.getTime() - oldestOpenInvoiceCreatedAt.getTime() > GRACE_MS;
}

/** When the organization's oldest unpaid seat invoice was written, and what all of them owe (cents). */
export async function openInvoiceSummary(client: Db | Tx, organizationId: string): Promise<{ oldestCreatedAt: Date | null; dueCents: number }> {
  const summary = await client.seatInvoice.aggregate({
    where: { organizationId, status: "open" },
    _min: { createdAt: true },
    _sum: { amountCents: true },
  });
  return { oldestCreatedAt: summary._min.createdAt, dueCents: summary._sum.amountCents ?? 0 };
}
