import { z } from "zod";
import { ApiError } from "@/lib/http/api-error";
import { logger } from "@/lib/log/logger";
import { creditPaidTopUp, endUnpaidTopUp, type CheckoutOutcome, type TopUpResult } from "./complete-top-up";
import { verifyStripeEvent } from "./stripe";
import { CheckoutSessionEvent, StripeEventHead, type CheckoutSessionFields } from "./stripe-event-schema";

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

type EventHead = z.infer<typeof StripeEventHead>;

function outcomeOf(event: EventHead, session: CheckoutSessionFields): CheckoutOutcome | null {
  const topUpId = session.metadata?.top_up_id ?? session.client_reference_id;
  if (!topUpId) return null;
  return {
    topUpId,
    organizationId: session.metadata?.organization_id ?? null,
    checkoutSessionId: session.id,
    amountTotal: session.amount_total ?? null,
    currency: session.currency ?? null,
    eventId: event.id,
  };
}

async function applyCheckoutEvent(event: EventHead, session: CheckoutSessionFields, outcome: CheckoutOutcome): Promise<TopUpResult | { outcome: "ignored"; reason: string }> {
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

/** The event's id and type; a signed body that is not an event at all is 400 `invalid_request`. */
function eventHead(body: unknown): EventHead {
  const head = StripeEventHead.safeParse(body);
  if (!head.success) throw new ApiError("invalid_request", { message: "The webhook body is not a Stripe event (a string id and type)" });
  return head.data;
}

/**
 * A Stripe webhook delivery: verifies the signature (400 `invalid_signature`;
 * 503 `top_up_not_configured` without the keys), then acts on the Checkout
 * Session events of wallet top-ups (complete-top-up.ts). Whatever else
 * arrives (other event types, sessions that are not our top-ups or cannot
 * be read, repeats) is acknowledged with 200 so Stripe stops retrying, and
 * what needs a person's eyes (an unknown top-up, a mismatched session or
 * amount, an unreadable session) is logged.
 */
export async function handleStripeWebhook(rawBody: string, signatureHeader: string | null, requestId?: string): Promise<StripeWebhookResult> {
  const body: unknown = verifyStripeEvent(rawBody, signatureHeader);
  const event = eventHead(body);
  const base = { received: true as const, event_id: event.id, type: event.type };
  if (!HANDLED.has(event.type)) return { ...base, outcome: "ignored", reason: "unhandled_event_type" };

  const parsed = CheckoutSessionEvent.safeParse(body);
  if (!parsed.success) {
    // Signed by Stripe yet not a readable Checkout Session: a retry brings the same body.
    const issues = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    logger.warn("stripe checkout event unreadable: ignored", { requestId, eventId: event.id, type: event.type, issues });
    return { ...base, outcome: "ignored", reason: "unreadable_session" };
  }
  const session = parsed.data.data.object;
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
