import type PgBoss from "pg-boss";
import { describeError, logger } from "@/lib/log/logger";
import { ensureQueue } from "./queue";

/**
 * A periodic job: a pg-boss queue of its own, a cron schedule that puts one
 * job in it per tick (pg-boss fires each schedule once across all processes,
 * at most once a minute), and a worker in each process that runs jobs. The
 * queue's policy is `stately`: at most one run waiting and one running
 * across every process, so a run never overlaps another and ticks missed
 * while no process was up do not pile up. What the jobs are is the
 * server's business (lib/server/scheduled-jobs.ts); this module knows none.
 */
export type ScheduledJob = {
  /** The queue's and the schedule's name. */
  name: string;
  /** When it runs: a 5-field cron expression in UTC (pg-boss's granularity is the minute). */
  cron: string;
  /** Also run once when a process that runs jobs starts (unless a run is already waiting): catches up after downtime. */
  runAtStart: boolean;
  /**
   * How long a run may take before pg-boss calls it lost. A run whose process
   * died holds the job that long (plus pg-boss's maintenance interval, 2
   * minutes) before another process may run it.
   */
  expireInSeconds: number;
  /** Retries of a failed run before the next tick; none by default (the next tick is the retry). */
  retry?: { limit: number; delaySeconds: number; backoff: boolean };
  run: () => Promise<unknown>;
};

/** How often an idle process asks whether a periodic job is waiting. */
const POLL_SECONDS = 5;

function queueOf(job: ScheduledJob): PgBoss.Queue & { policy: PgBoss.QueuePolicy } {
  const retry = job.retry ?? { limit: 0, delaySeconds: 0, backoff: false };
  return {
    name: job.name,
    policy: "stately",
    expireInSeconds: job.expireInSeconds,
    retryLimit: retry.limit,
    retryDelay: retry.delaySeconds,
    retryBackoff: retry.backoff,
  };
}

async function runLogged(job: ScheduledJob): Promise<void> {
  try {
    await job.run();
  } catch (err) {
    logger.error(`scheduled job ${job.name} failed`, describeError(err));
    throw err; // pg-boss records the run as failed (and retries it, if the job has retries)
  }
}

/**
 * Registers `jobs` with this process's queue: each one's queue (made or
 * updated), a worker, its schedule (written again, so a changed cron takes
 * effect), and its start-up run.
 */
export async function startScheduledJobs(boss: PgBoss, jobs: readonly ScheduledJob[]): Promise<void> {
  for (const job of jobs) {
    await ensureQueue(boss, queueOf(job));
    await boss.work(job.name, { pollingIntervalSeconds: POLL_SECONDS, batchSize: 1 }, () => runLogged(job));
    await boss.schedule(job.name, job.cron);
    if (job.runAtStart) await boss.send(job.name, {});
  }
}
