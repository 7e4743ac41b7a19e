import { portalText } from "./portal-en";

/**
 * The developer-facing text, in English: the developer portal and the
 * line items of a wallet top-up. (What a person sees on the hosted pages is
 * in messages/<locale>.json, one catalogue per language, through next-intl.)
 */
export const en = {
  billing: {
    /** The line item a developer sees on Stripe's Checkout page when topping up the wallet. */
    topUpProductName: "Wallet top-up",
    topUpProductDescription: (organization: string) => `Prepaid credit for identity verification checks (${organization})`,
  },
  /** The developer portal (lib/i18n/portal-en.ts). */
  portal: portalText,
};

export type Messages = typeof en;
