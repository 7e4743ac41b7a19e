import { now } from "@/lib/clock";
import { ensureDatabase } from "@/lib/db/connection";
import { sqlPool } from "@/lib/db/client";
import { analyzeDueTables } from "@/lib/db/planner-statistics";
import { pruneFaceIndexChanges } from "@/lib/faces/gallery-index";
import { purgeExpiredIdempotencyRecords } from "@/lib/http/idempotency";
import { describeError, logger } from "@/lib/log/logger";
import { expireDueSessions } from "./expire-sessions";

const globalForSweeper = globalThis as unknown as { __svcSweeper?: NodeJS.Timeout };

/**
 * Every `intervalMs`: ends due sessions, forgets idempotency records past
 * their 24 hours, prunes the face index's change log and, on the embedded
 * database, analyzes the tables that changed enough (it has no autovacuum).
 * Once per process; safe with several instances (every change is conditional).
 */
export function startExpirySweeper(intervalMs: number) {
  if (globalForSweeper.__svcSweeper) return;
  let running = false;
  globalForSweeper.__svcSweeper = setInterval(() => {
    if (running) return;
    running = true;
    Promise.all([expireDueSessions(), purgeExpiredIdempotencyRecords(), pruneFaceIndexChanges(now()), analyzeEmbeddedTables()])
      .then(([sessions]) => sessions > 0 && logger.info("sessions expired", { count: sessions }))
      .catch((err) => logger.error("background sweep failed", describeError(err)))
      .finally(() => (running = false));
  }, intervalMs);
  globalForSweeper.__svcSweeper.unref();
}

/** The embedded database's stand-in for autovacuum's ANALYZE (lib/db/planner-statistics.ts); PostgreSQL servers do their own. */
async function analyzeEmbeddedTables(): Promise<string[]> {
  if (!(await ensureDatabase()).embedded) return [];
  return analyzeDueTables(await sqlPool());
}
