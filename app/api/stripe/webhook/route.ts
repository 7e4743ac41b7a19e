import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { handleStripeWebhook } from "@/lib/billing/handle-stripe-webhook";

/**
 * Stripe's webhook for wallet top-ups (docs/billing.md "Wallet top-up (Stripe)"):
 * no API key, the raw body is verified against the Stripe-Signature header.
 */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "none", rawBody: true }, async ({ req, requestId }) =>
    handleStripeWebhook(await req.text(), req.headers.get("stripe-signature"), requestId),
  ),
});
