/** Values the portal's server code and its browser components share (no server imports here). */

/** The sign-in page's `?error=` codes next-auth answers with (shown from lib/i18n). */
export const SIGN_IN_ERRORS = { invalid: "CredentialsSignin", rateLimited: "rate_limited" } as const;

/** A password reset link works once, for this long. */
export const PASSWORD_RESET_TTL_MINUTES = 30;

/** An email verification link works once, for this long. */
export const EMAIL_VERIFICATION_TTL_HOURS = 24;

/** The page an email verification link opens (the token in its fragment). */
export const VERIFY_EMAIL_PAGE_PATH = "/verify-email";

// Where a top-up's Stripe Checkout returns to is billing's (lib/billing/top-up-return.ts); the portal's pages read it here.
export { TOP_UP_RETURN_PARAM, TOP_UP_RETURNS, WALLET_PAGE_PATH, type TopUpReturn } from "@/lib/billing/top-up-return";
