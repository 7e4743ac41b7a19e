import { z } from "zod";
import { now } from "@/lib/clock";
import { env } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import { parseOrThrow, UUID_PATTERN } from "@/lib/http/validation";
import { DEFAULT_LOCALE, messagesFor } from "@/lib/i18n";
import { describeError, logger } from "@/lib/log/logger";
import { TOP_UP_RETURN_PARAM, WALLET_PAGE_PATH, type TopUpReturn } from "./top-up-return";
import { CURRENCY } from "./money";
import { providerError, requireStripeSettings, stripeClient } from "./stripe";
import { TopUpAmountMinor } from "./top-up-amount";

const ReturnUrl = z
  .url({ protocol: /^https?$/, error: "Must be an absolute http:// or https:// URL" })
  .max(2048, "At most 2048 characters");

export const CreateTopUpCheckoutInput = z.object({
  organizationId: z.string().regex(UUID_PATTERN, "Must be an organization id"),
  amountMinor: TopUpAmountMinor,
  /** Where Stripe sends the developer after paying; may contain Stripe's `{CHECKOUT_SESSION_ID}` placeholder. */
  successUrl: ReturnUrl,
  /** Where Stripe sends the developer who abandons the payment. */
  cancelUrl: ReturnUrl,
  /** Pre-fills the Checkout page's email field (receipts); not stored here. */
  developerEmail: z.email("Must be an email address").optional(),
});

/**
 * Where Stripe sends the developer back (the portal's top-up route, and the
 * admin CLI when it names no pages): the portal's wallet page on
 * PUBLIC_BASE_URL, which says what happened from `?top_up=`. Stripe replaces
 * `{CHECKOUT_SESSION_ID}` with the session's id. Built on the server only:
 * a caller never chooses where a portal top-up returns to.
 */
export function defaultTopUpReturnUrls(): { successUrl: string; cancelUrl: string } {
  const base = `${env().PUBLIC_BASE_URL}${WALLET_PAGE_PATH}?${TOP_UP_RETURN_PARAM}=`;
  const success: TopUpReturn = "success";
  const cancelled: TopUpReturn = "cancelled";
  return { successUrl: `${base}${success}&session_id={CHECKOUT_SESSION_ID}`, cancelUrl: `${base}${cancelled}` };
}

export type TopUpCheckout = {
  topUpId: string;
  checkoutSessionId: string;
  /** The Stripe Checkout page to send the developer to. */
  url: string;
  amountMinor: number;
  currency: string;
  /** When Stripe ends the unpaid Checkout Session (Stripe's default: 24 hours). */
  expiresAt: Date | null;
};

/**
 * Starts a wallet top-up: records a `pending` top-up, then creates a Stripe
 * Checkout Session for it (mode payment, one line item of the amount in USD,
 * metadata `organization_id` and `top_up_id`) and returns its URL. Nothing
 * is credited here: only the signed `checkout.session.completed` webhook
 * credits the wallet (complete-top-up.ts).
 * - top-up not configured: 503 `top_up_not_configured`;
 * - bad input (amount outside 10 to 10,000 USD or not whole cents, a
 *   relative or non-http(s) URL, a bad email): 400 `invalid_request` with
 *   per-field errors;
 * - unknown organization: 404 `not_found`;
 * - Stripe refuses or does not answer: 502 `payment_provider_error`, the
 *   top-up is kept as `failed`.
 */
export async function createTopUpCheckout(
  organizationId: string,
  amountMinor: number,
  options: { successUrl: string; cancelUrl: string; developerEmail?: string },
): Promise<TopUpCheckout> {
  const settings = requireStripeSettings();
  const input = parseOrThrow(CreateTopUpCheckoutInput, { organizationId, amountMinor, ...options }, "body");

  const prisma = await db();
  const organization = await prisma.organization.findUnique({ where: { id: input.organizationId }, select: { name: true, wallet: { select: { id: true } } } });
  if (!organization?.wallet) throw new ApiError("not_found", { message: "Organization not found" });

  const topUp = await prisma.topUp.create({
    data: { organizationId: input.organizationId, amountCents: input.amountMinor, currency: CURRENCY, status: "pending", createdAt: now() },
  });
  const metadata = { organization_id: input.organizationId, top_up_id: topUp.id };
  const text = messagesFor(DEFAULT_LOCALE).billing;

  let session;
  try {
    session = await stripeClient(settings).checkout.sessions.create(
      {
        mode: "payment",
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: CURRENCY.toLowerCase(),
              unit_amount: input.amountMinor,
              product_data: { name: text.topUpProductName, description: text.topUpProductDescription(organization.name) },
            },
          },
        ],
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        client_reference_id: topUp.id,
        customer_email: input.developerEmail,
        metadata,
        payment_intent_data: { metadata },
      },
      // A retry of this request (by the SDK) returns the same session.
      { idempotencyKey: `top_up_${topUp.id}` },
    );
    if (!session.url) throw new ApiError("payment_provider_error", { message: "Stripe returned a Checkout Session without a URL" });
  } catch (err) {
    logger.error("stripe checkout session not created", { topUpId: topUp.id, organizationId: input.organizationId, ...describeError(err) });
    await prisma.topUp.update({ where: { id: topUp.id }, data: { status: "failed" } });
    throw providerError(err);
  }

  await prisma.topUp.update({ where: { id: topUp.id }, data: { stripeCheckoutSessionId: session.id, checkoutUrl: session.url } });
  return {
    topUpId: topUp.id,
    checkoutSessionId: session.id,
    url: session.url,
    amountMinor: input.amountMinor,
    currency: CURRENCY,
    expiresAt: typeof session.expires_at === "number" ? new Date(session.expires_at * 1000) : null,
  };
}
