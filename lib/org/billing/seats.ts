import { now } from "@/lib/clock";
import { db, type Db, type Tx } from "@/lib/db/client";
import { centsToAmount, CURRENCY } from "@/lib/billing/money";
import { ApiError } from "@/lib/http/api-error";
import { GRACE_DAYS, isPastDue, openInvoiceSummary } from "./grace";

/**
 * Seats (spec 3.2 "Billing", 8): every member of the organization whose
 * status is `active`, whatever its role; `invited`, `link_sent` and
 * `deactivated` members are free.
 */
export async function countSeats(client: Db | Tx, organizationId: string): Promise<number> {
  return client.member.count({ where: { organizationId, status: "active" } });
}

/**
 * The seats a paid period [start, end) is invoiced for: the members active
 * at its end (activated before it ended) and those deactivated during it
 * after having been active: deactivating everyone just before a period ends
 * does not avoid its charge. No proration beyond that.
 */
export async function countPeriodSeats(tx: Tx, organizationId: string, start: Date, end: Date): Promise<number> {
  return tx.member.count({
    where: {
      organizationId,
      AND: [
        { OR: [{ activatedAt: null }, { activatedAt: { lt: end } }] },
        { OR: [{ status: "active" }, { status: "deactivated", activatedAt: { not: null }, deactivatedAt: { gte: start } }] },
      ],
    },
  });
}

/**
 * Refuses new seats (activation, adding or binding members) while the
 * organization is past due: 402 `insufficient_funds`, saying to top up the
 * wallet. Members already active keep working. Pass the caller's
 * transaction to check inside it.
 */
export async function assertSeatsPayable(organizationId: string, at: Date = now(), tx?: Tx): Promise<void> {
  const client = tx ?? (await db());
  const { oldestCreatedAt, dueCents } = await openInvoiceSummary(client, organizationId);
  if (!isPastDue(oldestCreatedAt, at)) return;
  throw new ApiError("insufficient_funds", {
    message: `Seat invoices of ${centsToAmount(dueCents).toFixed(2)} ${CURRENCY} are unpaid for more than ${GRACE_DAYS} days: top up the wallet to add seats`,
    data: { amount_due: centsToAmount(dueCents), currency: CURRENCY },
  });
}
