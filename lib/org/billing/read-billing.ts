import type { App, SeatInvoice } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { centsToAmount, CURRENCY } from "@/lib/billing/money";
import { vocabularyValue } from "@/lib/contract-vocabulary";
import { isPastDue } from "./grace";
import { formatPeriod } from "./periods";
import { SEAT_PRICE_CENTS, seatChargeCents } from "./pricing";
import { countSeats } from "./seats";

export type SubscriptionStatus = "trialing" | "active" | "past_due";

/** The subscription's status: past due (grace over) before trialing before active. */
export function subscriptionStatus(trialEndsAt: Date, oldestOpenInvoiceCreatedAt: Date | null | undefined, at: Date): SubscriptionStatus {
  if (isPastDue(oldestOpenInvoiceCreatedAt, at)) return "past_due";
  return at.getTime() < trialEndsAt.getTime() ? "trialing" : "active";
}

function oldestCreation(invoices: readonly SeatInvoice[]): Date | null {
  return invoices.reduce<Date | null>((oldest, i) => (oldest && oldest <= i.createdAt ? oldest : i.createdAt), null);
}

/** A seat invoice is `open` until Stripe (or the wallet) settles it. */
export const INVOICE_STATUSES = ["open", "paid"] as const;

function presentInvoice(invoice: SeatInvoice) {
  return {
    period: formatPeriod(invoice.periodStart, invoice.periodEnd),
    seats: invoice.seats,
    amount: centsToAmount(invoice.amountCents),
    created_at: invoice.createdAt.toISOString(),
    status: vocabularyValue(INVOICE_STATUSES, invoice.status, "invoice status"),
    period_start: invoice.periodStart.toISOString(),
    period_end: invoice.periodEnd.toISOString(),
    paid_at: invoice.paidAt?.toISOString() ?? null,
  };
}

/** GET /api/sdk/billing: the app's organization's seat subscription, seats, wallet and invoices (spec 2.8), newest first. */
export async function readBilling(app: Pick<App, "organizationId">, at: Date = now()) {
  const prisma = await db();
  const organizationId = app.organizationId;
  const [subscription, seats, wallet, invoices] = await Promise.all([
    prisma.orgSubscription.findUnique({ where: { organizationId } }),
    countSeats(prisma, organizationId),
    prisma.wallet.findUnique({ where: { organizationId }, select: { balanceCents: true } }),
    prisma.seatInvoice.findMany({ where: { organizationId }, orderBy: [{ periodStart: "desc" }, { createdAt: "desc" }] }),
  ]);
  const priceCents = subscription?.pricePerSeatCents ?? SEAT_PRICE_CENTS;
  const oldestOpenCreatedAt = oldestCreation(invoices.filter((i) => i.status === "open"));
  return {
    subscription: subscription && {
      plan: subscription.plan,
      status: subscriptionStatus(subscription.trialEndsAt, oldestOpenCreatedAt, at),
      price_per_seat: centsToAmount(subscription.pricePerSeatCents),
      in_trial: at.getTime() < subscription.trialEndsAt.getTime(),
      trial_ends_at: subscription.trialEndsAt.toISOString(),
      current_period_end: subscription.currentPeriodEnd.toISOString(),
    },
    seats,
    estimated_next_charge: centsToAmount(seatChargeCents(seats, priceCents)),
    currency: CURRENCY,
    balance: centsToAmount(wallet?.balanceCents ?? 0),
    invoices: invoices.map(presentInvoice),
  };
}
