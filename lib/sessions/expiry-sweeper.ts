import { describeError, logger } from "@/lib/log/logger";
import { expireDueSessions } from "./expire-sessions";

const globalForSweeper = globalThis as unknown as { __svcSweeper?: NodeJS.Timeout };

/** Ends due sessions every `intervalMs` (once per process; safe with several instances). */
export function startExpirySweeper(intervalMs: number) {
  if (globalForSweeper.__svcSweeper) return;
  let running = false;
  globalForSweeper.__svcSweeper = setInterval(() => {
    if (running) return;
    running = true;
    expireDueSessions()
      .then((n) => n > 0 && logger.info("sessions expired", { count: n }))
      .catch((err) => logger.error("expiry sweep failed", describeError(err)))
      .finally(() => (running = false));
  }, intervalMs);
  globalForSweeper.__svcSweeper.unref();
}
