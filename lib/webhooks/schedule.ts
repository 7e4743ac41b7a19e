import { env } from "@/lib/config/env";

/** Seconds before attempt 1, 2, ... (default: at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h). */
export function retrySchedule(): number[] {
  return env()
    .WEBHOOK_RETRY_SCHEDULE.split(",")
    .map((s) => Number(s.trim()));
}

/**
 * When attempt number `next` (1-based) is due after a failure: its scheduled
 * delay with +/-10% jitter so retries of many deliveries spread out. Null when
 * the schedule is exhausted.
 */
export function nextAttemptDelayMs(next: number, random: () => number = Math.random): number | null {
  const schedule = retrySchedule();
  if (next > schedule.length) return null;
  const base = schedule[next - 1]! * 1000;
  return Math.round(base * (0.9 + 0.2 * random()));
}

/** Added to WEBHOOK_TIMEOUT_MS for the delivery lease: time to sign, connect and record an attempt. */
export const LEASE_MARGIN_MS = 10_000;

/**
 * How long a worker's claim holds a delivery: one attempt's timeout (which
 * bounds the whole POST) plus a margin. A live worker closes its attempt
 * within it; a dead worker's deliveries are claimed again once it lapses.
 */
export function leaseMs(timeoutMs: number = env().WEBHOOK_TIMEOUT_MS): number {
  return timeoutMs + LEASE_MARGIN_MS;
}
