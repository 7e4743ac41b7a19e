/** Values the portal's server code and its browser components share (no server imports here). */

/** The sign-in page's `?error=` codes next-auth answers with (shown from lib/i18n). */
export const SIGN_IN_ERRORS = { invalid: "CredentialsSignin", rateLimited: "rate_limited" } as const;

/** A password reset link works once, for this long. */
export const PASSWORD_RESET_TTL_MINUTES = 30;

/** An email verification link works once, for this long. */
export const EMAIL_VERIFICATION_TTL_HOURS = 24;

/** The page an email verification link opens (the token in its fragment). */
export const VERIFY_EMAIL_PAGE_PATH = "/verify-email";

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
