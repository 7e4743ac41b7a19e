import { now } from "@/lib/clock";
import { env } from "@/lib/config/env";
import { recheckLicences } from "@/lib/credentials/recheck-licences";
import { sqlPool } from "@/lib/db/client";
import { ensureDatabase } from "@/lib/db/connection";
import { analyzeDueTables } from "@/lib/db/planner-statistics";
import { purgeExpiredEnrollments } from "@/lib/faces/gallery";
import { pruneFaceIndexChanges } from "@/lib/faces/gallery-index";
import { purgeExpiredIdempotencyRecords } from "@/lib/http/idempotency";
import type { ScheduledJob } from "@/lib/jobs/schedules";
import { logger } from "@/lib/log/logger";
import { purgeExpiredOidcRows } from "@/lib/oidc/maintenance";
import { runSeatBilling } from "@/lib/org/billing/run";
import { purgeExpiredDeveloperSessions } from "@/lib/portal/developer-sessions";
import { expireDueSessions } from "@/lib/sessions/expire-sessions";

/**
 * Every periodic job of the service, in one list: each is a pg-boss schedule
 * (lib/jobs/schedules.ts) run by the processes that run jobs (the web server
 * unless JOB_WORKER=off, and `npm run worker`), once per tick across all of
 * them, never two runs of one job at once (docs/operations.md "Periodic jobs").
 * Every run is safe to repeat: its changes are conditional or idempotent.
 */
const EVERY_MINUTE = "* * * * *";
const EVERY_TEN_MINUTES = "*/10 * * * *";
const HOURLY = "0 * * * *";

/** A sweep of rows past their time: quick, so a run taking 5 minutes is lost (a crashed process's run then holds the job that long). */
const SWEEP = { runAtStart: true, expireInSeconds: 300 } as const;

export const SCHEDULED_JOBS: readonly ScheduledJob[] = [
  // Open sessions past expires_at become EXPIRED or ABANDONED, and their webhook event is queued. Reads
  // apply expiry themselves (lib/sessions/open-session.ts), so the minute only delays the event.
  { name: "expire-sessions", cron: EVERY_MINUTE, ...SWEEP, run: expireSessions },
  // Idempotency-Key records past their 24 hours (a claim already treats them as absent).
  { name: "purge-idempotency-records", cron: EVERY_TEN_MINUTES, ...SWEEP, run: () => purgeExpiredIdempotencyRecords() },
  // Portal sign-ins past their 8 hours (refused already; this deletes the rows).
  { name: "purge-portal-sign-ins", cron: EVERY_TEN_MINUTES, ...SWEEP, run: () => purgeExpiredDeveloperSessions() },
  // The OIDC provider's expired codes, tokens, interactions and grants.
  { name: "purge-oidc-rows", cron: EVERY_TEN_MINUTES, ...SWEEP, run: purgeExpiredOidcRows },
  // Face-uniqueness enrollments past FACE_GALLERY_RETENTION_DAYS (when set): unlinked, and a face left without one deleted.
  { name: "face-gallery-retention", cron: HOURLY, ...SWEEP, run: () => purgeExpiredEnrollments(now(), env().FACE_GALLERY_RETENTION_DAYS) },
  // The 1:N search index's change log past its day.
  { name: "prune-face-index-changes", cron: HOURLY, ...SWEEP, run: () => pruneFaceIndexChanges(now()) },
  // The embedded database's stand-in for autovacuum's ANALYZE, at autovacuum's own pace (autovacuum_naptime, 1 minute).
  { name: "planner-statistics", cron: EVERY_MINUTE, ...SWEEP, run: analyzeEmbeddedTables },
  // Seat billing: idempotent per period, retried with backoff (docs/organization-api.md "Background jobs").
  {
    name: "seat-billing",
    cron: EVERY_TEN_MINUTES,
    runAtStart: false,
    expireInSeconds: 15 * 60,
    retry: { limit: 8, delaySeconds: 30, backoff: true },
    run: billSeats,
  },
  // The daily licence re-check (03:30 UTC): it may run for hours against a slow registry, so it may take 6
  // hours before pg-boss calls it lost, and is tried once more at most (a rerun skips what the first confirmed).
  {
    name: "licence-recheck",
    cron: "30 3 * * *",
    runAtStart: false,
    expireInSeconds: 6 * 3600,
    retry: { limit: 1, delaySeconds: 600, backoff: false },
    run: async () => logger.info("licence re-check", await recheckLicences()),
  },
];

async function expireSessions(): Promise<void> {
  const count = await expireDueSessions();
  if (count > 0) logger.info("sessions expired", { count });
}

async function billSeats(): Promise<void> {
  const result = await runSeatBilling();
  if (result.invoices > 0 || result.collected > 0) logger.info("seat billing run", result);
}

/** ANALYZE of the tables that changed enough (lib/db/planner-statistics.ts), on the embedded database only: PostgreSQL servers do their own. */
async function analyzeEmbeddedTables(): Promise<string[]> {
  if (!(await ensureDatabase()).embedded) return [];
  return analyzeDueTables(await sqlPool());
}

/**
 * SWEEP_INTERVAL_SECONDS set the old in-process sweeper's period; the sweeps
 * are now periodic jobs on their own schedules (SCHEDULED_JOBS above), so the
 * setting is accepted and ignored, with a word in the log (web and worker processes).
 */
export function warnIfSweepIntervalSet(): void {
  if (env().SWEEP_INTERVAL_SECONDS !== undefined) {
    logger.warn("SWEEP_INTERVAL_SECONDS is no longer used: session expiry and the other sweeps are periodic jobs (every minute or less often), run by the processes that run jobs (JOB_WORKER)");
  }
}
