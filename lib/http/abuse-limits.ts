/**
 * The abuse limits' numbers, in one place (docs/api-conventions.md "Abuse limits" is their
 * table). Each limit counts per client IP and per account (the email, the
 * app, the person, the client) so that one attacker cannot exhaust a
 * victim's budget from elsewhere and one address cannot spray accounts.
 * Four limits are environment settings instead, with their defaults in
 * lib/config/env.ts: RATE_LIMIT_PER_MINUTE (150 requests per minute per IP
 * and surface), PORTAL_SIGN_IN_ATTEMPTS_PER_ACCOUNT (10 failed sign-ins per
 * account and client IP) and PORTAL_SIGN_IN_ATTEMPTS_PER_IP (50 failed
 * sign-ins per client IP), counted over `portalSignIn.windowSeconds`,
 * and PORTAL_SIGN_UPS_PER_IP_PER_HOUR (5) over `portalSignUp.windowSeconds`.
 *
 * The numbers follow common identity providers (Auth0's brute-force
 * protection: 10 failed attempts per account from one IP; one-time codes: a
 * few attempts per code and a few codes per address and hour).
 */
export const ABUSE_LIMITS = {
  /**
   * Developer portal sign-in: FAILED attempts per (account, client IP) and per client IP over this window
   * (counts: env), as for tokenClientAuth below and with the same mechanism (startBudgetedAttempt).
   */
  portalSignIn: { windowSeconds: 15 * 60 },
  /** Developer portal sign-up: per client IP over this window (count: env PORTAL_SIGN_UPS_PER_IP_PER_HOUR). */
  portalSignUp: { windowSeconds: 60 * 60 },
  /** Developer portal: mails of a new email verification link, per developer per hour (the first, at sign-up, is not counted). */
  portalEmailVerification: { perDeveloperPerHour: 3 },
  /** Developer portal "forgot password" mails. */
  portalPasswordReset: { perEmailPerHour: 3, perIpPerHour: 20 },
  /**
   * End-user sign-in codes (lib/accounts/login-codes.ts): valid 10 minutes,
   * 5 wrong entries use a code up; at most 5 codes per sign-in request, 5 per
   * email address per hour, 100 per client IP per hour.
   */
  loginCode: { ttlSeconds: 600, maxAttempts: 5, maxPerInteraction: 5, maxPerEmailPerHour: 5, maxPerIpPerHour: 100 },
  /** End-user face sign-in: scans per sign-in request; failed scans per address before a lock, and its length. */
  faceSignIn: { triesPerSignIn: 3, failuresBeforeLock: 5, lockSeconds: 15 * 60 },
  /** Organization API account recovery start: per app per minute, per (app, person) per hour. */
  recoveryStart: { perAppPerMinute: 60, perPersonPerHour: 5 },
  /** Organization API invitation re-send: per app per minute. */
  inviteResend: { perAppPerMinute: 10 },
  /**
   * Token endpoint client authentication: FAILED attempts per (client_id,
   * client IP) and per client IP over the window; over either, the endpoint
   * refuses that IP (for that client) until the window ends, a correct
   * secret included. A success clears the (client_id, IP) count. Keyed with
   * the IP so that nobody can lock a client out from elsewhere.
   */
  tokenClientAuth: { windowSeconds: 15 * 60, failuresPerClientPerIp: 10, failuresPerIp: 30 },
} as const;
