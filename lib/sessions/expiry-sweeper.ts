import { now } from "@/lib/clock";
import { env } from "@/lib/config/env";
import { ensureDatabase } from "@/lib/db/connection";
import { sqlPool } from "@/lib/db/client";
import { analyzeDueTables } from "@/lib/db/planner-statistics";
import { purgeExpiredEnrollments } from "@/lib/faces/gallery";
import { pruneFaceIndexChanges } from "@/lib/faces/gallery-index";
import { purgeExpiredIdempotencyRecords } from "@/lib/http/idempotency";
import { describeError, logger } from "@/lib/log/logger";
import { expireDueSessions } from "./expire-sessions";
import { dueEvery, processSlot } from "@/lib/process-slots";

const sweeperSlot = processSlot<NodeJS.Timeout>("sweeper");

/** The gallery's retention is in days: its purge (a scan of the enrollments) runs at most hourly. */
const FACE_PURGE_EVERY_MS = 3_600_000;

function purgeFaceGallery(): Promise<number> {
  const days = env().FACE_GALLERY_RETENTION_DAYS;
  const at = now();
  if (!days || !dueEvery("facePurgeAt", FACE_PURGE_EVERY_MS, at.getTime())) return Promise.resolve(0);
  return purgeExpiredEnrollments(at, days);
}

/**
 * Every `intervalMs`: ends due sessions, forgets idempotency records past
 * their 24 hours, unlinks face-uniqueness enrollments past
 * FACE_GALLERY_RETENTION_DAYS (hourly), prunes the face index's change log and, on the embedded
 * database, analyzes the tables that changed enough (it has no autovacuum).
 * `alsoPurge` are the sweeps of domains above this one (the caller names
 * them: lib/server/domain-sweeps.ts). Once per process; safe
 * with several instances (every change is conditional).
 */
export function startExpirySweeper(intervalMs: number, alsoPurge: ReadonlyArray<() => Promise<unknown>> = []) {
  if (sweeperSlot.value) return;
  let running = false;
  sweeperSlot.value = setInterval(() => {
    if (running) return;
    running = true;
    Promise.all([
      expireDueSessions(),
      purgeExpiredIdempotencyRecords(),
      ...alsoPurge.map((purge) => purge()),
      purgeFaceGallery(),
      pruneFaceIndexChanges(now()),
      analyzeEmbeddedTables(),
    ])
      .then(([sessions]) => sessions > 0 && logger.info("sessions expired", { count: sessions }))
      .catch((err) => logger.error("background sweep failed", describeError(err)))
      .finally(() => (running = false));
  }, intervalMs);
  sweeperSlot.value.unref();
}

/** The embedded database's stand-in for autovacuum's ANALYZE (lib/db/planner-statistics.ts); PostgreSQL servers do their own. */
async function analyzeEmbeddedTables(): Promise<string[]> {
  if (!(await ensureDatabase()).embedded) return [];
  return analyzeDueTables(await sqlPool());
}
