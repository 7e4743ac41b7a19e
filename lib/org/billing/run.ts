import { now } from "@/lib/clock";
import { db, type Tx } from "@/lib/db/client";
import { applyLedgerEntry } from "@/lib/billing/ledger";
import { logger, describeError } from "@/lib/log/logger";
import { isTrialPeriod, nextPeriodEnd, formatPeriod } from "./periods";
import { seatChargeCents } from "./pricing";
import { countPeriodSeats } from "./seats";
import { sql } from "kysely";
import { prepareQuery, runPreparedInTransaction, typedSql } from "@/lib/db/typed-sql";

/**
 * The seat billing run (docs/organization-api.md "Seats and billing"), every 10 minutes from
 * the background job queue (lib/server/job-workers.ts), or by hand:
 * `await runSeatBilling()`. Billing is in arrears: for every subscription
 * whose current period has ended by `at`, each elapsed period (several when
 * the run was down) is closed: the trial without an invoice, every paid
 * period with one invoice of its seats (countPeriodSeats) times the
 * subscription's price, paid from the wallet in the same
 * transaction as the invoice and the period's advance, or left `open` when
 * the wallet cannot pay. Then every open invoice the wallet can now pay is
 * collected, oldest first.
 *
 * Idempotent and safe to run concurrently: a subscription is locked
 * (`FOR UPDATE`) and re-checked before a period is closed, an invoice is
 * unique per (subscription, period start), and its charge per ledger
 * reference `seat_invoice:<invoice id>`.
 */
export async function runSeatBilling(at: Date = now()): Promise<{ invoices: number; collected: number }> {
  const prisma = await db();
  let invoices = 0;
  let collected = 0;

  const due = await prisma.orgSubscription.findMany({
    where: { currentPeriodEnd: { lte: at } },
    select: { id: true, organizationId: true },
    orderBy: { currentPeriodEnd: "asc" },
  });
  for (const subscription of due) {
    try {
      const result = await prisma.$transaction((tx) => closeElapsedPeriods(tx, subscription.id, at), TRANSACTION_OPTIONS);
      invoices += result.invoices;
      collected += result.collected;
    } catch (err) {
      // One organization's failure must not stop the others' billing; the next run retries it.
      logger.error("seat billing failed for an organization", { organization_id: subscription.organizationId, ...describeError(err) });
    }
  }

  const owing = await prisma.seatInvoice.findMany({ where: { status: "open" }, distinct: ["organizationId"], select: { organizationId: true } });
  for (const { organizationId } of owing) {
    try {
      const paid = await prisma.$transaction((tx) => collectOpenInvoices(tx, organizationId, at), TRANSACTION_OPTIONS);
      collected += paid.length;
    } catch (err) {
      logger.error("seat invoice collection failed for an organization", { organization_id: organizationId, ...describeError(err) });
    }
  }
  return { invoices, collected };
}

/** A catch-up over many periods, or a wait on another run's lock, may outlast Prisma's 5 s default. */
const TRANSACTION_OPTIONS = { maxWait: 30_000, timeout: 60_000 };

/** The subscription, locked for the transaction (a concurrent run waits for it). */
const subscriptionForUpdate = prepareQuery("seat_billing_subscription_for_update", (v: { id: string }) =>
  typedSql
    .selectFrom("org_subscriptions")
    .select(["id", "organization_id", "price_per_seat_cents", "trial_ends_at", "current_period_start", "current_period_end"])
    .where("id", "=", v.id)
    .forUpdate(),
);

type LockedSubscription = Awaited<ReturnType<typeof lockSubscription>>[number];
const lockSubscription = (tx: Tx, id: string) => runPreparedInTransaction(tx, subscriptionForUpdate, { id });

/** A period's invoice, unless the period already has one (then no row: the unique index decides without aborting the transaction). */
const insertInvoice = prepareQuery(
  "seat_billing_insert_invoice",
  (v: {
    subscriptionId: string;
    organizationId: string;
    periodStart: Date;
    periodEnd: Date;
    seats: number;
    pricePerSeatCents: number;
    amountCents: number;
    status: "open" | "paid";
    paidAt: Date | null;
    at: Date;
  }) =>
    typedSql
      .insertInto("seat_invoices")
      .values({
        id: sql<string>`gen_random_uuid()::text`,
        subscription_id: v.subscriptionId,
        organization_id: v.organizationId,
        period_start: v.periodStart,
        period_end: v.periodEnd,
        seats: v.seats,
        price_per_seat_cents: v.pricePerSeatCents,
        amount_cents: v.amountCents,
        status: v.status,
        paid_at: v.paidAt,
        created_at: v.at,
      })
      .onConflict((oc) => oc.columns(["subscription_id", "period_start"]).doNothing())
      .returning("id"),
);

/** The organization's wallet, locked for the transaction, so the balance read is the one charged. */
const walletForUpdate = prepareQuery("seat_billing_wallet_for_update", (v: { organizationId: string }) =>
  typedSql.selectFrom("wallets").select("balance_cents").where("organization_id", "=", v.organizationId).forUpdate(),
);

/** The organization's open invoices, oldest first, locked for the transaction. */
const openInvoicesForUpdate = prepareQuery("seat_billing_open_invoices_for_update", (v: { organizationId: string }) =>
  typedSql
    .selectFrom("seat_invoices")
    .select(["id", "amount_cents", "period_start", "period_end"])
    .where("organization_id", "=", v.organizationId)
    .where("status", "=", "open")
    .orderBy("period_start")
    .orderBy("created_at")
    .forUpdate(),
);

/**
 * Closes every period of one subscription that has ended by `at`, under the
 * subscription's row lock: a concurrent run waits, then sees the advanced
 * period and closes nothing.
 */
async function closeElapsedPeriods(tx: Tx, subscriptionId: string, at: Date): Promise<{ invoices: number; collected: number }> {
  const [sub] = await lockSubscription(tx, subscriptionId);
  if (!sub || sub.current_period_end.getTime() > at.getTime()) return { invoices: 0, collected: 0 };

  const written: string[] = [];
  let start = sub.current_period_start;
  let end = sub.current_period_end;
  while (end.getTime() <= at.getTime()) {
    if (!isTrialPeriod(sub.trial_ends_at, end)) {
      const id = await writeInvoice(tx, sub, start, end, at);
      if (id) written.push(id);
    }
    start = end;
    end = nextPeriodEnd(sub.trial_ends_at, end);
  }
  await tx.orgSubscription.update({ where: { id: sub.id }, data: { currentPeriodStart: start, currentPeriodEnd: end, updatedAt: at } });

  const paid = written.length > 0 ? await collectOpenInvoices(tx, sub.organization_id, at) : [];
  return { invoices: written.length, collected: paid.filter((id) => !written.includes(id)).length };
}

/**
 * The invoice of one paid period: its seats (countPeriodSeats: active at
 * its end, or deactivated during it) times the subscription's price. Written `open`; a zero amount is
 * `paid` at once (there is nothing to charge). Returns its id, or null when
 * the period already has its invoice.
 */
async function writeInvoice(tx: Tx, sub: LockedSubscription, start: Date, end: Date, at: Date): Promise<string | null> {
  const seats = await countPeriodSeats(tx, sub.organization_id, start, end);
  const amountCents = seatChargeCents(seats, sub.price_per_seat_cents);
  const status = amountCents === 0 ? "paid" : "open";
  const paidAt = amountCents === 0 ? at : null;
  const inserted = await runPreparedInTransaction(tx, insertInvoice, {
    subscriptionId: sub.id,
    organizationId: sub.organization_id,
    periodStart: start,
    periodEnd: end,
    seats,
    pricePerSeatCents: sub.price_per_seat_cents,
    amountCents,
    status,
    paidAt,
    at,
  });
  const id = inserted[0]?.id ?? null;
  if (id) logger.info("seat invoice written", { organization_id: sub.organization_id, period: formatPeriod(start, end), seats, amount_cents: amountCents });
  return id;
}

/**
 * Pays the organization's open invoices from its wallet, oldest first, as
 * long as the balance covers the next one (a later invoice never jumps the
 * queue). The wallet row is locked first, so the balance read is the one
 * charged. Each payment is a `seat_charge` ledger row with reference
 * `seat_invoice:<invoice id>` (at most once per invoice). Returns the ids paid.
 */
export async function collectOpenInvoices(tx: Tx, organizationId: string, at: Date = now()): Promise<string[]> {
  const [wallet] = await runPreparedInTransaction(tx, walletForUpdate, { organizationId });
  if (!wallet) return [];
  const open = await runPreparedInTransaction(tx, openInvoicesForUpdate, { organizationId });
  let balance = wallet.balance_cents;
  const paid: string[] = [];
  for (const invoice of open) {
    if (invoice.amount_cents > balance) break;
    if (invoice.amount_cents > 0) {
      const entry = await applyLedgerEntry(tx, {
        organizationId,
        amountCents: -invoice.amount_cents,
        kind: "seat_charge",
        reference: `seat_invoice:${invoice.id}`,
        description: `Seats ${formatPeriod(invoice.period_start, invoice.period_end)}`,
      });
      balance = entry.balanceCents;
    }
    await tx.seatInvoice.update({ where: { id: invoice.id }, data: { status: "paid", paidAt: at } });
    paid.push(invoice.id);
  }
  return paid;
}
