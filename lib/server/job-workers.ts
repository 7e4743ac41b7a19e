import type PgBoss from "pg-boss";
import { recheckLicences } from "@/lib/credentials/recheck-licences";
import { describeError, logger } from "@/lib/log/logger";
import { runSeatBilling } from "@/lib/org/billing/run";
import { sendInvitationEmail } from "@/lib/org/invitation-email";
import { mailAvailable, type InvitationEmailJob } from "@/lib/org/invitations";
import { sendRecoveryEmail, type RecoveryEmailJob } from "@/lib/org/recovery/recovery-email";
import { jobQueue, QUEUES, type QueueName } from "@/lib/jobs/queue";
import { processSlot } from "@/lib/process-slots";

/**
 * The background job handlers of this process (docs/organization-api.md "Background jobs"):
 * invitation and account-recovery emails as they are queued, the seat billing run every 10
 * minutes, the licence re-check daily (a pg-boss schedule: one run across all processes per tick; the
 * run itself is idempotent per period). Started in every web process unless
 * JOB_WORKER=off, and in `npm run worker`.
 */
export const SEAT_BILLING_CRON = "*/10 * * * *";
/** Stored licences are looked up again in their registries once a day (03:30 UTC). */
export const LICENCE_RECHECK_CRON = "30 3 * * *";

const jobWorkersSlot = processSlot<Promise<void>>("jobWorkers");

async function workEach<T extends object>(boss: PgBoss, queue: QueueName, handle: (data: T) => Promise<unknown>, describe: (data: T) => Record<string, string>) {
  await boss.work<T>(queue, { batchSize: 25, pollingIntervalSeconds: 1 }, async (jobs) => {
    for (const job of jobs) {
      try {
        await handle(job.data);
      } catch (err) {
        logger.error(`${queue} job failed; it will be retried`, { ...describe(job.data), ...describeError(err) });
        await boss.fail(queue, job.id, { message: (err as Error).message });
      }
    }
  });
}

async function register(boss: PgBoss) {
  // A batch per poll; each job fails on its own (retried with backoff) without failing the others of its batch.
  // A process that cannot send mail (production without SMTP_HOST) leaves mail jobs to the processes that can.
  if (mailAvailable()) {
    await workEach<InvitationEmailJob>(boss, QUEUES.invitationEmail, (data) => sendInvitationEmail(data), (data) => ({ member_id: data.member_id }));
    await workEach<RecoveryEmailJob>(boss, QUEUES.recoveryEmail, (data) => sendRecoveryEmail(data), (data) => ({ member_id: data.member_id, session_id: data.session_id }));
  } else {
    logger.info("mail is not configured: this process leaves invitation and recovery emails to processes that have SMTP_HOST");
  }
  await boss.work(QUEUES.seatBilling, { pollingIntervalSeconds: 5 }, async () => {
    const result = await runSeatBilling();
    if (result.invoices > 0 || result.collected > 0) logger.info("seat billing run", result);
  });
  await boss.schedule(QUEUES.seatBilling, SEAT_BILLING_CRON);
  await boss.work(QUEUES.licenceRecheck, { pollingIntervalSeconds: 30 }, async () => {
    logger.info("licence re-check", await recheckLicences());
  });
  await boss.schedule(QUEUES.licenceRecheck, LICENCE_RECHECK_CRON);
}

export function startJobWorkers(): Promise<void> {
  jobWorkersSlot.value ??= jobQueue()
    .then(register)
    .catch((err) => {
      jobWorkersSlot.value = undefined;
      logger.error("background jobs did not start; invitation emails and seat billing wait until they do", describeError(err));
    });
  return jobWorkersSlot.value;
}
