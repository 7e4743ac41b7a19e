import type PgBoss from "pg-boss";
import { describeError, logger } from "@/lib/log/logger";
import { sendInvitationEmail } from "@/lib/org/invitation-email";
import { mailAvailable, type InvitationEmailJob } from "@/lib/org/invitations";
import { sendRecoveryEmail, type RecoveryEmailJob } from "@/lib/org/recovery/recovery-email";
import { jobQueue, QUEUES, type QueueName } from "@/lib/jobs/queue";
import { startScheduledJobs } from "@/lib/jobs/schedules";
import { processSlot } from "@/lib/process-slots";
import { SCHEDULED_JOBS } from "./scheduled-jobs";

/**
 * The background jobs of this process (docs/organization-api.md "Background jobs"):
 * invitation and account-recovery emails as they are queued, and every periodic job
 * (./scheduled-jobs.ts: session expiry, the purges, planner statistics, seat billing,
 * the licence re-check), each a pg-boss schedule run once per tick across all processes.
 * Started in every web process unless JOB_WORKER=off, and in `npm run worker`.
 */

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
  await startScheduledJobs(boss, SCHEDULED_JOBS);
}

export function startJobWorkers(): Promise<void> {
  jobWorkersSlot.value ??= jobQueue()
    .then(register)
    .catch((err) => {
      jobWorkersSlot.value = undefined;
      logger.error("background jobs did not start; invitation emails, session expiry and the other periodic jobs wait until they do", describeError(err));
    });
  return jobWorkersSlot.value;
}
