/** Where a wallet top-up returns after Stripe Checkout: shared by billing's server code and the portal's browser components (no server imports here). */

/** The portal's wallet page: where Stripe Checkout sends the developer back after a top-up. */
export const WALLET_PAGE_PATH = "/dashboard/wallet";

/**
 * The query parameter Stripe Checkout's return URLs carry back to the wallet
 * page (`?top_up=success&session_id=...` / `?top_up=cancelled`), so the page
 * can say what happened.
 */
export const TOP_UP_RETURN_PARAM = "top_up";
export const TOP_UP_RETURNS = ["success", "cancelled"] as const;
export type TopUpReturn = (typeof TOP_UP_RETURNS)[number];
