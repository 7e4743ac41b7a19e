import type { TopUp } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { applyLedgerEntry } from "./ledger";

/** What a Stripe Checkout Session event says about one of our top-ups. */
export type CheckoutOutcome = {
  /** `metadata.top_up_id` (or `client_reference_id`) of the session. */
  topUpId: string;
  /** `metadata.organization_id` of the session. */
  organizationId: string | null;
  checkoutSessionId: string;
  /** Minor units, as Stripe reports them (`amount_total`, `currency`). */
  amountTotal: number | null;
  currency: string | null;
  eventId: string;
};

export type TopUpResult =
  | { outcome: "credited"; topUpId: string; balanceCents: number; ledgerEntryId: string }
  | { outcome: "already_credited"; topUpId: string }
  | { outcome: "recorded"; topUpId: string; status: "expired" | "failed" }
  | { outcome: "ignored"; reason: "unknown_top_up" | "session_mismatch" | "amount_mismatch" | "not_pending"; topUpId: string };

/** The ledger reference of a top-up's credit: the unique index refuses a second one per wallet. */
export function topUpLedgerReference(topUpId: string): string {
  return `top_up:${topUpId}`;
}

/**
 * The top-up a session event is about, if it is really ours: the top-up
 * exists, belongs to the organization the session names, and the session
 * is the one created for it (or none was recorded yet).
 */
async function matchTopUp(event: CheckoutOutcome): Promise<{ topUp: TopUp } | { error: "unknown_top_up" | "session_mismatch" }> {
  const prisma = await db();
  const topUp = await prisma.topUp.findUnique({ where: { id: event.topUpId } });
  if (!topUp) return { error: "unknown_top_up" };
  const sameSession = topUp.stripeCheckoutSessionId === null || topUp.stripeCheckoutSessionId === event.checkoutSessionId;
  if (topUp.organizationId !== event.organizationId || !sameSession) return { error: "session_mismatch" };
  return { topUp };
}

/**
 * Credits a paid top-up exactly once: in one transaction, the top-up moves
 * to `completed` only if it is not already (a conditional update: of two
 * deliveries racing, the second waits for the first's row lock and then
 * finds nothing to change), and the wallet gets a `top_up` ledger row whose
 * reference `top_up:<id>` is unique per wallet. A retried or duplicated
 * Stripe event therefore answers `already_credited` and changes nothing.
 * A session whose amount or currency differs from the recorded top-up is not
 * credited (`amount_mismatch`, for a person to look at).
 */
export async function creditPaidTopUp(event: CheckoutOutcome): Promise<TopUpResult> {
  const matched = await matchTopUp(event);
  if ("error" in matched) return { outcome: "ignored", reason: matched.error, topUpId: event.topUpId };
  const { topUp } = matched;
  if (topUp.status === "completed") return { outcome: "already_credited", topUpId: topUp.id };
  if (event.amountTotal !== topUp.amountCents || event.currency?.toUpperCase() !== topUp.currency) {
    return { outcome: "ignored", reason: "amount_mismatch", topUpId: topUp.id };
  }

  const prisma = await db();
  return prisma.$transaction(async (tx): Promise<TopUpResult> => {
    const at = now();
    const claimed = await tx.topUp.updateMany({
      where: { id: topUp.id, status: { not: "completed" }, OR: [{ stripeCheckoutSessionId: null }, { stripeCheckoutSessionId: event.checkoutSessionId }] },
      data: { status: "completed", completedAt: at, stripeEventId: event.eventId, stripeCheckoutSessionId: event.checkoutSessionId },
    });
    if (claimed.count === 0) return { outcome: "already_credited", topUpId: topUp.id };
    const entry = await applyLedgerEntry(tx, {
      organizationId: topUp.organizationId,
      amountCents: topUp.amountCents,
      kind: "top_up",
      reference: topUpLedgerReference(topUp.id),
      description: `Top-up through Stripe Checkout (${event.checkoutSessionId})`,
    });
    if (!entry.applied || !entry.entryId) return { outcome: "already_credited", topUpId: topUp.id };
    await tx.topUp.update({ where: { id: topUp.id }, data: { ledgerEntryId: entry.entryId } });
    return { outcome: "credited", topUpId: topUp.id, balanceCents: entry.balanceCents, ledgerEntryId: entry.entryId };
  });
}

/**
 * Records that a pending top-up's Checkout Session ended unpaid: `expired`
 * (`checkout.session.expired`) or `failed` (`checkout.session.async_payment_failed`).
 * Only a pending top-up changes; a completed one stays completed.
 */
export async function endUnpaidTopUp(event: CheckoutOutcome, status: "expired" | "failed"): Promise<TopUpResult> {
  const matched = await matchTopUp(event);
  if ("error" in matched) return { outcome: "ignored", reason: matched.error, topUpId: event.topUpId };
  const prisma = await db();
  const changed = await prisma.topUp.updateMany({
    where: { id: matched.topUp.id, status: "pending" },
    data: { status, stripeEventId: event.eventId },
  });
  if (changed.count === 0) return { outcome: "ignored", reason: "not_pending", topUpId: matched.topUp.id };
  return { outcome: "recorded", topUpId: matched.topUp.id, status };
}
