import { now } from "@/lib/clock";
import { pruneFaceIndexChanges } from "@/lib/faces/gallery-index";
import { purgeExpiredIdempotencyRecords } from "@/lib/http/idempotency";
import { describeError, logger } from "@/lib/log/logger";
import { expireDueSessions } from "./expire-sessions";

const globalForSweeper = globalThis as unknown as { __svcSweeper?: NodeJS.Timeout };

/**
 * Every `intervalMs`: ends due sessions, forgets idempotency records past
 * their 24 hours and prunes the face index's change log. Once per process; safe with several instances (every
 * change is conditional).
 */
export function startExpirySweeper(intervalMs: number) {
  if (globalForSweeper.__svcSweeper) return;
  let running = false;
  globalForSweeper.__svcSweeper = setInterval(() => {
    if (running) return;
    running = true;
    Promise.all([expireDueSessions(), purgeExpiredIdempotencyRecords(), pruneFaceIndexChanges(now())])
      .then(([sessions]) => sessions > 0 && logger.info("sessions expired", { count: sessions }))
      .catch((err) => logger.error("background sweep failed", describeError(err)))
      .finally(() => (running = false));
  }, intervalMs);
  globalForSweeper.__svcSweeper.unref();
}
