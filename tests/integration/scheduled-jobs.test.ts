import { randomBytes, randomUUID } from "node:crypto";
import PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScheduledJobs } from "@/lib/jobs/schedules";
import { api, keyHeader } from "../support/api";
import { cli } from "../support/cli";
import { createTestDatabase, databaseUrl, sql } from "../support/database";
import { LOCAL_RECEIVER_NETWORKS, TestReceiver } from "../support/receiver";
import { startServer, type RunningServer } from "../support/server";

/**
 * The periodic jobs (lib/server/scheduled-jobs.ts) as deployed: a production
 * server that runs jobs (JOB_WORKER=on) on a database of its own registers
 * every one as a pg-boss schedule, and the schedule, not a request, ends a
 * session left open past its expiry (its webhook arrives). Two processes'
 * workers never run one job at once.
 */
const cleanups: Array<() => Promise<unknown>> = [];
let env: Record<string, string>;
let server: RunningServer;
let receiver: TestReceiver;
let tenant: { apiKey: string };

beforeAll(async () => {
  const database = await createTestDatabase("schedules");
  cleanups.push(() => database.drop());
  env = { ...database.env, ENCRYPTION_KEY: randomBytes(32).toString("hex"), WEBHOOK_POLL_MS: "100", ...LOCAL_RECEIVER_NETWORKS };
  server = await startServer({ ...env, JOB_WORKER: "on" });
  cleanups.push(() => server.stop());
  receiver = await new TestReceiver().start();
  cleanups.push(() => receiver.stop());
  const dev = await cli(["developer:create", "--email", `s${randomUUID()}@example.com`, "--password", "schedule-password-1"], env);
  const app = await cli(["app:create", "--org", dev.organization_id, "--name", "Schedules", "--env", "test"], env);
  const hook = await cli(["webhook:create", "--app", app.app_id, "--url", receiver.url, "--approve"], env);
  receiver.secret = hook.secret;
  tenant = { apiKey: app.api_key };
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
    const workflow = await api("POST", "/api/v2/workflows", { base: server.url, headers: keyHeader(tenant), json: { name: `w-${randomUUID()}`, features: ["location"] } });
    expect(workflow.status).toBe(201);
    const created = await api("POST", "/api/v2/session", { base: server.url, headers: keyHeader(tenant), json: { workflow_id: workflow.body.data.workflow.id } });
    expect(created.status).toBe(201);
    const sessionId: string = created.body.data.session_id;
    // Its expiry passes; nobody reads it (a read would end it by itself).
    await sql(env, "UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id = $1", [sessionId]);
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
