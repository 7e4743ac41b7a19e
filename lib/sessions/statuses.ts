/**
 * Session states (spec 3.1 plus IN_PROGRESS, set when the person starts the
 * hosted flow). docs/sessions.md "Session lifecycle" documents every transition.
 * Pure: the hosted page (a client component) imports it too.
 */
import type { SessionStatus } from "@/lib/contract-vocabulary";

export { SESSION_STATUSES, type SessionStatus } from "@/lib/contract-vocabulary";

/** No further checks, no further transitions. */
export const TERMINAL_STATUSES: ReadonlySet<string> = new Set(["APPROVED", "DECLINED", "EXPIRED", "ABANDONED"]);

/** The person can still work on the session (it can expire). */
export const OPEN_STATUSES: readonly SessionStatus[] = ["NOT_STARTED", "IN_PROGRESS"];

/** Statuses that carry an outcome and are announced as events (spec 6). */
export const EVENT_STATUSES: ReadonlySet<string> = new Set(["APPROVED", "DECLINED", "IN_REVIEW", "EXPIRED", "ABANDONED"]);

/** Statuses with an outcome the person cannot change any more (a repeated finish answers it). */
export const DECIDED_STATUSES = ["APPROVED", "DECLINED", "IN_REVIEW"] as const;

export function isDecided(status: string): boolean {
  return (DECIDED_STATUSES as readonly string[]).includes(status);
}

/** Statuses that ended without an outcome: the session ran out or was given up (the hosted page says it has expired). */
const GONE_STATUSES: ReadonlySet<string> = new Set(["EXPIRED", "ABANDONED"]);

export function isGone(status: string): boolean {
  return GONE_STATUSES.has(status);
}

export function isTerminal(status: string): boolean {
  return TERMINAL_STATUSES.has(status);
}

export { CHECK_STATUSES, type CheckStatus } from "@/lib/contract-vocabulary";
