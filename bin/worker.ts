// `npm run worker`: a background process for scaled deployments: delivers
// webhooks and runs the background jobs (emails, and the periodic jobs of
// lib/server/scheduled-jobs.ts: session expiry, purges, seat billing...),
// sharing the outbox and the job queue with any number of other workers and
// web instances (set WEBHOOK_WORKER=off and JOB_WORKER=off on those to leave
// delivery and jobs to the workers).
try {
  process.loadEnvFile(".env");
} catch {
  // no .env file
}
import { ConfigError, env } from "@/lib/config/env";
import { encryptionKey } from "@/lib/crypto/encryption-key";
import { db, disconnectDb } from "@/lib/db/client";
import { logger } from "@/lib/log/logger";
import { startJobWorkers } from "@/lib/server/job-workers";
import { warnIfSweepIntervalSet } from "@/lib/server/scheduled-jobs";
import { stopJobQueue } from "@/lib/jobs/queue";
import { registerAppDataMigrations } from "@/lib/operations/data-migrations";
import { logWebhookDestinationPolicy } from "@/lib/webhooks/allowed-networks";
import { startWebhookWorker } from "@/lib/webhooks/worker";

let config: ReturnType<typeof env>;
try {
  config = env();
  encryptionKey();
} catch (err) {
  // The same plain message the server gives for a bad configuration.
  process.stderr.write(`\n${err instanceof ConfigError ? err.message : String(err)}\n\n`);
  process.exit(1);
}
registerAppDataMigrations();
await db();
logWebhookDestinationPolicy();
const worker = startWebhookWorker();
// JOB_WORKER=off: a webhook-only worker (background jobs run elsewhere).
if (config.JOB_WORKER === "on") await startJobWorkers();
warnIfSweepIntervalSet();
logger.info("worker started", { pid: process.pid });

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    await worker.stop();
    await stopJobQueue();
    await disconnectDb();
    process.exit(0);
  });
}
