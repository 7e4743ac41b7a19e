import type Stripe from "stripe";
import { logger } from "@/lib/log/logger";
import { creditPaidTopUp, endUnpaidTopUp, type CheckoutOutcome, type TopUpResult } from "./complete-top-up";
import { verifyStripeEvent } from "./stripe";

/** What the webhook answers Stripe (any 2xx acknowledges; Stripe retries anything else). */
export type StripeWebhookResult = {
  received: true;
  event_id: string;
  type: string;
  outcome: TopUpResult["outcome"] | "ignored";
  reason?: string;
};

/** The Checkout Session events the wallet acts on; every other event type is acknowledged and ignored. */
const HANDLED = new Set([
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.async_payment_failed",
  "checkout.session.expired",
]);

function outcomeOf(event: Stripe.Event, session: Stripe.Checkout.Session): CheckoutOutcome | null {
  const topUpId = session.metadata?.top_up_id ?? session.client_reference_id;
  if (!topUpId) return null;
  return {
    topUpId,
    organizationId: session.metadata?.organization_id ?? null,
    checkoutSessionId: session.id,
    amountTotal: session.amount_total,
    currency: session.currency,
    eventId: event.id,
  };
}

async function applyCheckoutEvent(event: Stripe.Event, session: Stripe.Checkout.Session, outcome: CheckoutOutcome): Promise<TopUpResult | { outcome: "ignored"; reason: string }> {
  switch (event.type) {
    case "checkout.session.completed":
      // Card payments are paid at completion; delayed methods (bank debits)
      // complete unpaid and are credited on async_payment_succeeded.
      if (session.payment_status !== "paid") return { outcome: "ignored", reason: "awaiting_payment" };
      return creditPaidTopUp(outcome);
    case "checkout.session.async_payment_succeeded":
      return creditPaidTopUp(outcome);
    case "checkout.session.async_payment_failed":
      return endUnpaidTopUp(outcome, "failed");
    case "checkout.session.expired":
      return endUnpaidTopUp(outcome, "expired");
    default:
      return { outcome: "ignored", reason: "unhandled_event_type" };
  }
}

/**
 * A Stripe webhook delivery: verifies the signature (400 `invalid_signature`;
 * 503 `top_up_not_configured` without the keys), then acts on the Checkout
 * Session events of wallet top-ups (complete-top-up.ts). Whatever else
 * arrives (other event types, sessions that are not our top-ups, repeats) is
 * acknowledged with 200 so Stripe stops retrying, and what needs a person's
 * eyes (an unknown top-up, a mismatched session or amount) is logged.
 */
export async function handleStripeWebhook(rawBody: string, signatureHeader: string | null, requestId?: string): Promise<StripeWebhookResult> {
  const event = verifyStripeEvent(rawBody, signatureHeader);
  const base = { received: true as const, event_id: event.id, type: event.type };
  if (!HANDLED.has(event.type)) return { ...base, outcome: "ignored", reason: "unhandled_event_type" };

  const session = event.data.object as Stripe.Checkout.Session;
  const outcome = outcomeOf(event, session);
  if (!outcome) {
    logger.warn("stripe checkout event without a top-up id: ignored", { requestId, eventId: event.id, type: event.type, checkoutSessionId: session.id });
    return { ...base, outcome: "ignored", reason: "not_a_top_up" };
  }
  const result = await applyCheckoutEvent(event, session, outcome);
  const fields = { requestId, eventId: event.id, type: event.type, checkoutSessionId: session.id, topUpId: outcome.topUpId };
  if (result.outcome === "ignored") {
    // A paid session whose amount differs from the top-up is money received and not credited: an error for a person.
    const quiet = result.reason === "awaiting_payment" || result.reason === "not_pending";
    const log = quiet ? logger.info : result.reason === "amount_mismatch" ? logger.error : logger.warn;
    log(`stripe checkout event ignored: ${result.reason}`, fields);
    return { ...base, outcome: "ignored", reason: result.reason };
  }
  logger.info(`stripe top-up ${result.outcome}`, fields);
  return { ...base, outcome: result.outcome };
}
