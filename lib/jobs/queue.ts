import PgBoss from "pg-boss";
import type { Tx } from "@/lib/db/client";
import { ensureDatabase } from "@/lib/db/connection";
import { describeError, logger } from "@/lib/log/logger";
import { processSlot } from "@/lib/process-slots";

/**
 * Background jobs on the service's own database, through pg-boss 10 (docs/organization-api.md
 * "Background jobs"): retries with backoff, cron schedules that run once
 * across any number of processes (./schedules.ts), and workers in every web process (unless
 * JOB_WORKER=off) and in `npm run worker`. pg-boss 10 rather than 12: 12
 * needs Node 22 and this service runs on Node 20. It keeps its tables in
 * the `pgboss` schema, created and migrated by pg-boss itself on start.
 *
 * Jobs are queued in the transaction that causes them (`enqueueJobs` with
 * the caller's connection), so a job exists exactly when its cause committed.
 */
export const QUEUES = {
  /** One invitation email (lib/org/invitation-email.ts). */
  invitationEmail: "member-invitation-email",
  /** One account-recovery link email (lib/org/recovery/recovery-email.ts). */
  recoveryEmail: "member-recovery-email",
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/** The queued jobs' options: tried 8 times, with backoff from 30 s. (The periodic jobs' queues are made by ./schedules.ts.) */
const QUEUE_OPTIONS = { policy: "standard", retryLimit: 8, retryDelay: 30, retryBackoff: true } as const;

const jobQueueSlot = processSlot<Promise<PgBoss>>("jobQueue");

async function startQueue(): Promise<PgBoss> {
  const database = await ensureDatabase();
  const boss = new PgBoss({ connectionString: database.url, max: database.embedded ? 2 : 4, application_name: "svc-jobs" });
  boss.on("error", (err) => logger.error("background job queue error", describeError(err)));
  await boss.start();
  for (const name of Object.values(QUEUES)) await ensureQueue(boss, { name, ...QUEUE_OPTIONS });
  return boss;
}

/**
 * Makes the queue, or brings an existing one to `queue`'s options (a queue
 * made by an older release takes the current policy, retries and expiry).
 * pg-boss's updateQueue resets an unnamed policy to standard: `queue` names it.
 */
export async function ensureQueue(boss: PgBoss, queue: PgBoss.Queue & { policy: PgBoss.QueuePolicy }): Promise<void> {
  if (await boss.getQueue(queue.name)) await boss.updateQueue(queue.name, queue);
  else await boss.createQueue(queue.name, queue);
}

/** The process's queue (started, and its queues created, on first use). */
export function jobQueue(): Promise<PgBoss> {
  jobQueueSlot.value ??= startQueue().catch((err) => {
    jobQueueSlot.value = undefined;
    throw err;
  });
  return jobQueueSlot.value;
}

export type NewJob = { name: QueueName; data: object; singletonKey?: string; startAfter?: Date };

/** Runs pg-boss's statements inside a Prisma transaction. */
function inTransaction(tx: Tx): PgBoss.Db {
  return {
    executeSql: async (text, values) => ({ rows: await tx.$queryRawUnsafe<unknown[]>(text, ...values.map((v) => v ?? null)) }),
  };
}

/** Queues jobs; with `tx`, inside that open transaction (they exist only if it commits). */
export async function enqueueJobs(jobs: NewJob[], tx?: Tx): Promise<void> {
  if (jobs.length === 0) return;
  const boss = await jobQueue();
  if (tx) await boss.insert(jobs, { db: inTransaction(tx) });
  else await boss.insert(jobs);
}

/** Stops this process's workers and schedule (tests and shutdown). */
export async function stopJobQueue(): Promise<void> {
  const current = jobQueueSlot.value;
  jobQueueSlot.value = undefined;
  if (current) await (await current).stop({ graceful: true, timeout: 5_000 });
}
