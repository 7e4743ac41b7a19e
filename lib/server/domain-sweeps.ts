import { purgeExpiredOidcRowsWhenDue } from "@/lib/oidc/maintenance";
import { purgeExpiredDeveloperSessions } from "@/lib/portal/developer-sessions";

/**
 * The sweeps of domains above the sessions' sweeper, which it runs with its
 * own every SWEEP_INTERVAL_SECONDS (lib/sessions/expiry-sweeper.ts): portal
 * sign-ins past their expiry, and (every 10 minutes) the OIDC provider's
 * expired codes, tokens, interactions and grants. One list for the web and
 * the worker processes.
 */
export const DOMAIN_SWEEPS: ReadonlyArray<() => Promise<unknown>> = [purgeExpiredDeveloperSessions, purgeExpiredOidcRowsWhenDue];
