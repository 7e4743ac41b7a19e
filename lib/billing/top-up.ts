/**
 * Whether wallet top-up (Stripe Checkout) can be offered: only with
 * STRIPE_SECRET_KEY configured. The Checkout domain itself is built
 * separately (lib/billing/stripe-*.ts); until it is wired to the portal the
 * wallet page shows the button disabled with why.
 */
export function isTopUpConfigured(): boolean {
  return Boolean(process.env.STRIPE_SECRET_KEY?.trim());
}
