import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScheduledJobs } from "@/lib/jobs/schedules";
import { api, keyHeader } from "../support/api";
import { cli } from "../support/cli";
import { createTestDatabase, databaseUrl, sql } from "../support/database";
import { LOCAL_RECEIVER_NETWORKS, TestReceiver } from "../support/receiver";
import { baseEnv, ROOT, startServer, watchProcess, type RunningServer } from "../support/server";

/**
 * The periodic jobs (lib/server/scheduled-jobs.ts) as deployed: a production
 * server that runs jobs (JOB_WORKER=on) on a database of its own registers
 * every one as a pg-boss schedule, and the schedule, not a request, ends a
 * session left open past its expiry (its webhook arrives); in a split
 * deployment the worker process runs them, not the web. Two processes'
 * workers never run one job at once.
 */
const cleanups: Array<() => Promise<unknown>> = [];
let env: Record<string, string>;
let server: RunningServer;
let receiver: TestReceiver;
let tenant: { apiKey: string };

async function freshInstall(label: string) {
  const database = await createTestDatabase(label);
  cleanups.push(() => database.drop());
  return { ...database.env, ENCRYPTION_KEY: randomBytes(32).toString("hex"), WEBHOOK_POLL_MS: "100", ...LOCAL_RECEIVER_NETWORKS };
}

/** A test app whose webhook goes to a new receiver. */
async function tenantWithReceiver(install: Record<string, string>) {
  const hooks = await new TestReceiver().start();
  cleanups.push(() => hooks.stop());
  const dev = await cli(["developer:create", "--email", `s${randomUUID()}@example.com`, "--password", "schedule-password-1"], install);
  const app = await cli(["app:create", "--org", dev.organization_id, "--name", "Schedules", "--env", "test"], install);
  const hook = await cli(["webhook:create", "--app", app.app_id, "--url", hooks.url, "--approve"], install);
  hooks.secret = hook.secret;
  return { receiver: hooks, tenant: { apiKey: app.api_key as string } };
}

/** A session of `tenant` whose expiry has passed, unread since (a read would end it by itself). */
async function sessionPastItsExpiry(install: Record<string, string>, base: string, owner: { apiKey: string }): Promise<string> {
  const workflow = await api("POST", "/api/v2/workflows", { base, headers: keyHeader(owner), json: { name: `w-${randomUUID()}`, features: ["location"] } });
  expect(workflow.status).toBe(201);
  const created = await api("POST", "/api/v2/session", { base, headers: keyHeader(owner), json: { workflow_id: workflow.body.data.workflow.id } });
  expect(created.status).toBe(201);
  await sql(install, "UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id = $1", [created.body.data.session_id]);
  return created.body.data.session_id;
}

beforeAll(async () => {
  env = await freshInstall("schedules");
  server = await startServer({ ...env, JOB_WORKER: "on" });
  cleanups.push(() => server.stop());
  ({ receiver, tenant } = await tenantWithReceiver(env));
}, 180_000);

afterAll(async () => {
  for (const fn of cleanups.reverse()) await fn().catch(() => {});
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    value = await read();
  }
  return value;
}

describe("periodic jobs on a production server", () => {
  it("every periodic job is a pg-boss schedule, at its documented cadence", async () => {
    const schedules = await until(
      () => sql<{ name: string; cron: string }>(env, "SELECT name, cron FROM pgboss.schedule ORDER BY name"),
      (rows) => rows.length >= 9,
      60_000,
    );
    expect(Object.fromEntries(schedules.map((s) => [s.name, s.cron]))).toEqual({
      "expire-sessions": "* * * * *",
      "planner-statistics": "* * * * *",
      "purge-idempotency-records": "*/10 * * * *",
      "purge-portal-sign-ins": "*/10 * * * *",
      "purge-oidc-rows": "*/10 * * * *",
      "seat-billing": "*/10 * * * *",
      "face-gallery-retention": "0 * * * *",
      "prune-face-index-changes": "0 * * * *",
      "licence-recheck": "30 3 * * *",
    });
  });

  it("a session left open past its expiry is ended by the schedule, unread, and its webhook arrives", async () => {
    const sessionId = await sessionPastItsExpiry(env, server.url, tenant);
    // The next minute's tick, found by pg-boss's cron monitor (every 30 s) and taken by the server's worker.
    await receiver.waitFor((r) => r.processed.some((e) => e.session_id === sessionId), 150_000);
    const event = receiver.processed.find((e) => e.session_id === sessionId)!;
    expect(event).toMatchObject({ type: "verification.completed", status: "EXPIRED" });
    const [row] = await sql<{ status: string }>(env, "SELECT status FROM sessions WHERE id = $1", [sessionId]);
    expect(row!.status).toBe("EXPIRED");
    // The run went through the job queue.
    const runs = await sql<{ n: number }>(
      env,
      `SELECT count(*)::int AS n FROM (SELECT name, state FROM pgboss.job UNION ALL SELECT name, state FROM pgboss.archive) j
        WHERE j.name = 'expire-sessions' AND j.state = 'completed'`,
    );
    expect(runs[0]!.n).toBeGreaterThanOrEqual(1);
    // No periodic job failed meanwhile (each logs "scheduled job <name> failed" when it does).
    expect(server.output()).not.toContain("scheduled job");
  }, 200_000);
});

describe("a split deployment", () => {
  it("the worker process (npm run worker) runs the periodic jobs; a web process with JOB_WORKER=off runs none", async () => {
    const install = await freshInstall("schedules-split");
    // An upgraded deployment still setting the retired SWEEP_INTERVAL_SECONDS: accepted, and named in a warning.
    const web = await startServer({ ...install, JOB_WORKER: "off", WEBHOOK_WORKER: "off", SWEEP_INTERVAL_SECONDS: "30" });
    expect(web.output()).toContain("SWEEP_INTERVAL_SECONDS is no longer used");
    cleanups.push(() => web.stop());
    const { receiver: hooks, tenant: owner } = await tenantWithReceiver(install);
    const sessionId = await sessionPastItsExpiry(install, web.url, owner);
    // The worker, as deployed: production, jobs and webhook delivery on. Its start-up run of the expiry job ends the session.
    const child = spawn(process.execPath, ["--import", "tsx", "bin/worker.ts"], {
      cwd: ROOT,
      env: baseEnv({ ...install, NODE_ENV: "production", JOB_WORKER: "on", WEBHOOK_WORKER: "on" }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const worker = watchProcess(child, "worker");
    cleanups.push(() => worker.stop());
    await hooks.waitFor((r) => r.processed.some((e) => e.session_id === sessionId), 150_000);
    expect(hooks.processed.find((e) => e.session_id === sessionId)).toMatchObject({ type: "verification.completed", status: "EXPIRED" });
    // The worker ended it; the web process ran no periodic job.
    expect(worker.output()).toContain("sessions expired");
    expect(web.output()).not.toContain("sessions expired");
    expect(worker.output()).not.toContain("scheduled job");
  }, 240_000);
});

describe("two processes that run jobs", () => {
  it("never run one periodic job twice at once, and requests made while it runs do not pile up", async () => {
    const name = `test-overlap-${randomBytes(4).toString("hex")}`;
    let running = 0;
    let mostAtOnce = 0;
    let runs = 0;
    const job = {
      name,
      cron: "0 0 1 1 *", // yearly: this test sends the runs itself
      runAtStart: true,
      expireInSeconds: 60,
      run: async () => {
        running++;
        mostAtOnce = Math.max(mostAtOnce, running);
        await new Promise((r) => setTimeout(r, 1500));
        running--;
        runs++;
      },
    };
    // Two queues as two processes hold them (each its own pool), both working the job.
    const bosses = [0, 1].map(() => new PgBoss({ connectionString: databaseUrl(env), max: 2, application_name: "svc-test-jobs" }));
    for (const boss of bosses) {
      boss.on("error", () => {});
      await boss.start();
    }
    try {
      for (const boss of bosses) await startScheduledJobs(boss, [job]);
      let sent = bosses.length; // the start-up runs
      for (let i = 0; i < 6; i++) {
        await bosses[i % 2]!.send(name, {});
        sent++;
        await new Promise((r) => setTimeout(r, 400));
      }
      const left = await until(
        () => sql<{ n: number }>(env, "SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND state IN ('created', 'retry', 'active')", [name]),
        (rows) => rows[0]!.n === 0 && running === 0,
        60_000,
      );
      expect(left[0]!.n).toBe(0);
      expect(mostAtOnce).toBe(1);
      expect(runs).toBeGreaterThanOrEqual(2);
      expect(runs).toBeLessThan(sent); // at most one run waits while one runs: the rest were dropped
    } finally {
      // The test's queue stays (the database is this file's own, dropped afterwards); its schedule goes.
      await bosses[0]!.unschedule(name);
      for (const boss of bosses) await boss.stop({ graceful: true, timeout: 5_000 });
    }
  }, 120_000);
});
