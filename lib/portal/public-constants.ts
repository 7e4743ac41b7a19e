/** Values the portal's server code and its browser components share (no server imports here). */

/** The sign-in page's `?error=` codes next-auth answers with (shown from lib/i18n). */
export const SIGN_IN_ERRORS = { invalid: "CredentialsSignin", rateLimited: "rate_limited" } as const;

/** A password reset link works once, for this long. */
export const PASSWORD_RESET_TTL_MINUTES = 30;
