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
