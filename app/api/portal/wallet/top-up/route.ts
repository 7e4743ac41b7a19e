import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { createTopUpCheckout, defaultTopUpReturnUrls } from "@/lib/billing/create-top-up-checkout";
import { TopUpRequestBody } from "@/lib/billing/top-up-amount";

/**
 * Starts a wallet top-up for the signed-in developer's organization: body
 * `{ amount }` in USD (10 to 10,000, whole cents), answers `201 { url }`, the
 * Stripe Checkout page to send the browser to. The organization comes from
 * the session and the return pages (the wallet page) from PUBLIC_BASE_URL,
 * never from the request. 400 bad amount, 503 `top_up_not_configured`, 502
 * `payment_provider_error`; the wallet is credited by the webhook only.
 */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "developer", body: TopUpRequestBody }, async ({ developer, body }) => {
    // `body.amount` is in cents once parsed (TopUpAmountUsd).
    const checkout = await createTopUpCheckout(developer.organizationId, body.amount, {
      ...defaultTopUpReturnUrls(),
      developerEmail: developer.email,
    });
    return reply({ url: checkout.url }, 201);
  }),
});
