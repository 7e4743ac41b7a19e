import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { cli } from "../support/cli";
import { createTestDatabase, sql, waitForDatabaseHost, type TestDatabase } from "../support/database";
import { LOCAL_RECEIVER_NETWORKS, TestReceiver } from "../support/receiver";
import { baseEnv, freePort, ROOT, startServer, type RunningServer } from "../support/server";
import { insertEvents } from "../support/webhook-outbox";

/**
 * Durability and scale-out of delivery, each on a database of its own:
 * an event outlives a server restart while its receiver is down, two
 * worker processes over one outbox deliver every event exactly once, and a
 * worker killed mid-delivery loses nothing and leaves a truthful log.
 */
const cleanups: Array<() => Promise<unknown>> = [];
/** Each test makes a fresh install (migrations), runs CLI processes and starts servers or workers: slow on a busy 2-core machine. */
const INSTALL_TEST_MS = 150_000;
afterAll(async () => {
  for (const fn of cleanups.reverse()) await fn().catch(() => {});
});

async function freshInstall(label: string, extra: Record<string, string> = {}) {
  const database: TestDatabase = await createTestDatabase(label);
  cleanups.push(() => database.drop());
  // The tests' receivers listen on 127.0.0.1: allowed by configuration, as an operator would.
  const env = { ...database.env, ENCRYPTION_KEY: randomBytes(32).toString("hex"), ...LOCAL_RECEIVER_NETWORKS, ...extra };
  return env;
}

async function tenantWithWebhook(env: Record<string, string>, url: string) {
  const dev = await cli(["developer:create", "--email", `w${randomUUID()}@example.com`, "--password", "worker-password-1"], env);
  const app = await cli(["app:create", "--org", dev.organization_id, "--name", "W", "--env", "test"], env);
  const hook = await cli(["webhook:create", "--app", app.app_id, "--url", url, "--approve"], env);
  return { appId: app.app_id as string, webhookId: hook.webhook_id as string, secret: hook.secret as string };
}

/**
 * An install whose web instance leaves delivery to worker processes (and,
 * embedded, hosts the database for them), with a tenant whose webhook goes
 * to a running receiver.
 */
async function installForWorkers(label: string, extra: Record<string, string>) {
  const env = await freshInstall(label, extra);
  const web = await startServer({ ...env, WEBHOOK_WORKER: "off" });
  cleanups.push(() => web.stop());
  const receiver = await new TestReceiver().start();
  cleanups.push(() => receiver.stop());
  const { appId, webhookId, secret } = await tenantWithWebhook(env, receiver.url);
  receiver.secret = secret;
  return { env, receiver, appId, webhookId };
}

/**
 * `npm run worker`'s process, as one node process (tsx as a loader, not the
 * tsx CLI, which would run the worker in a child of its own that a SIGKILL
 * of the CLI does not reach).
 */
function startWorker(env: Record<string, string>): ChildProcess & { started: Promise<void> } {
  // Webhook delivery only: this file's workers leave the background job queue alone (JOB_WORKER=off).
  const child = spawn(process.execPath, ["--import", "tsx", "bin/worker.ts"], { cwd: ROOT, env: baseEnv({ JOB_WORKER: "off", ...env }), stdio: ["ignore", "pipe", "ignore"] });
  cleanups.push(
    () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(null);
        child.once("exit", resolve);
        child.kill("SIGTERM");
      }),
  );
  // Its "worker started" log line: it polls the outbox from then on.
  const started = new Promise<void>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('"message":"worker started"')) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the worker exited (${code}) before it started`)));
  });
  started.catch(() => {});
  return Object.assign(child, { started });
}

describe("webhook durability", () => {
  it("a receiver that is down during a server restart still gets the event afterwards", async () => {
    const env = await freshInstall("wh-restart", { WEBHOOK_RETRY_SCHEDULE: "0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1" });
    const port = await freePort();
    const receiver = new TestReceiver();
    const { webhookId, secret, appId } = await tenantWithWebhook(env, `http://127.0.0.1:${port}/hook`);
    receiver.secret = secret;

    let server: RunningServer = await startServer(env);
    const sent = await cli(["webhook:test", "--webhook", webhookId, "--kind", "approved"], env);
    const attempted = async () =>
      (await sql(env, `SELECT attempt_count FROM webhook_deliveries WHERE app_id = $1`, [appId]))[0]?.attempt_count ?? 0;
    const deadline = Date.now() + 15_000;
    while ((await attempted()) < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await attempted()).toBeGreaterThanOrEqual(2); // refused while the receiver is down
    await server.stop();

    await receiver.start(port);
    cleanups.push(() => receiver.stop());
    server = await startServer(env);
    cleanups.push(() => server.stop());
    await receiver.waitFor((r) => r.processed.length === 1);
    expect(receiver.processed[0]!.event_id).toBe(sent.event_id);
  }, INSTALL_TEST_MS);
});

describe("two workers over one outbox", () => {
  it("deliver each of 200 events exactly once", async () => {
    const env = await freshInstall("wh-workers", { WEBHOOK_POLL_MS: "50", WEBHOOK_CONCURRENCY: "8" });
    const receiver = await new TestReceiver().start();
    cleanups.push(() => receiver.stop());
    const { appId, webhookId, secret } = await tenantWithWebhook(env, receiver.url);
    receiver.secret = secret;

    const first = startWorker(env);
    // The second worker starts once the first one hosts or reaches the database.
    await waitForDatabaseHost(env);
    const second = startWorker(env);
    await Promise.all([first.started, second.started]);

    await insertEvents(env, { appId, webhookId, url: receiver.url, count: 200 });
    await receiver.waitFor((r) => r.processed.length === 200, 60_000);
    // Every delivery recorded as done: neither worker has a POST still to send.
    const succeeded = async () => (await sql(env, `SELECT count(*)::int AS n FROM webhook_deliveries WHERE app_id = $1 AND state = 'succeeded'`, [appId]))[0].n;
    await expect.poll(succeeded, { timeout: 30_000 }).toBe(200);
    expect(receiver.received).toHaveLength(200);
    expect(new Set(receiver.received.map((r) => r.headers["x-svc-event-id"])).size).toBe(200);
    const rows = await sql(env, `SELECT state, attempt_count FROM webhook_deliveries WHERE app_id = $1`, [appId]);
    expect(rows.every((r) => r.state === "succeeded" && r.attempt_count === 1)).toBe(true);
    const attempts = await sql(
      env,
      `SELECT a.outcome, count(*)::int AS n FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
        WHERE d.app_id = $1 GROUP BY a.outcome`,
      [appId],
    );
    expect(attempts).toEqual([{ outcome: "succeeded", n: 200 }]);
  }, INSTALL_TEST_MS);
});

describe("a worker killed in the middle of deliveries", () => {
  it("leaves its attempts in the log as interrupted; another worker delivers every event, one attempt row per POST", async () => {
    // An 8 s attempt timeout gives an 18 s lease (timeout + 10 s margin) instead of the default 25 s.
    const { env, receiver, appId, webhookId } = await installForWorkers("wh-kill", { WEBHOOK_POLL_MS: "50", WEBHOOK_CONCURRENCY: "4", WEBHOOK_TIMEOUT_MS: "8000" });
    receiver.hold = true; // the POSTs arrive and are never answered
    const ids = await insertEvents(env, { appId, webhookId, url: receiver.url, count: 6 });

    const first = startWorker(env);
    await receiver.waitFor((r) => r.received.length === 4, 60_000); // one round of WEBHOOK_CONCURRENCY in flight
    const exited = new Promise((resolve) => first.once("exit", resolve));
    first.kill("SIGKILL");
    await exited;
    const cutOff = receiver.received.map((r) => r.headers["x-svc-event-id"] as string);
    expect(new Set(cutOff).size).toBe(4);

    receiver.hold = false;
    startWorker(env);
    await receiver.waitFor((r) => r.processed.length === 6, 90_000);
    const settled = async () =>
      (await sql(env, `SELECT count(*)::int AS n FROM webhook_deliveries WHERE app_id = $1 AND state = 'succeeded'`, [appId]))[0].n;
    const deadline = Date.now() + 15_000;
    while ((await settled()) < 6 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));

    // Every event arrived at least once and was processed once.
    expect(receiver.processed.map((e) => e.event_id).sort()).toEqual([...ids].sort());
    // The delivery log (CLI; the API shows the same) has one attempt per POST that was sent.
    const log = (await cli(["webhook:deliveries", "--app", appId], env)).deliveries as any[];
    expect(log).toHaveLength(6);
    const attempts = log.flatMap((d) => d.attempts);
    expect(attempts).toHaveLength(receiver.received.length);
    expect(receiver.received).toHaveLength(10);
    for (const delivery of log) {
      const posts = receiver.received.filter((r) => r.headers["x-svc-event-id"] === delivery.event_id).length;
      expect(delivery.attempts).toHaveLength(posts);
      expect(delivery.state).toBe("succeeded");
      if (cutOff.includes(delivery.event_id)) {
        expect(delivery.attempts).toEqual([
          expect.objectContaining({ number: 1, outcome: "interrupted", ended_at: null, duration_ms: null, status_code: null }),
          expect.objectContaining({ number: 2, outcome: "succeeded", status_code: 200 }),
        ]);
      } else {
        expect(delivery.attempts).toEqual([expect.objectContaining({ number: 1, outcome: "succeeded", status_code: 200 })]);
      }
    }
  }, INSTALL_TEST_MS);
});

describe("a worker stopped gracefully", () => {
  it("finishes the deliveries it has in flight before it exits (SIGTERM)", async () => {
    const { env, receiver, appId, webhookId } = await installForWorkers("wh-stop", { WEBHOOK_POLL_MS: "50" });
    receiver.answerDelayMs = 3000; // slow answers: the stop comes while both are in flight
    await insertEvents(env, { appId, webhookId, url: receiver.url, count: 2 });

    const worker = startWorker(env);
    await receiver.waitFor((r) => r.received.length === 2, 60_000);
    const exited = new Promise<number | null>((resolve) => worker.once("exit", (code) => resolve(code)));
    worker.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(receiver.processed).toHaveLength(2); // answered before the worker exited
    const rows = await sql(env, `SELECT state, attempt_count FROM webhook_deliveries WHERE app_id = $1`, [appId]);
    expect(rows).toEqual([{ state: "succeeded", attempt_count: 1 }, { state: "succeeded", attempt_count: 1 }]);
    const attempts = await sql(
      env,
      `SELECT a.outcome FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.app_id = $1`,
      [appId],
    );
    expect(attempts).toEqual([{ outcome: "succeeded" }, { outcome: "succeeded" }]);
  }, INSTALL_TEST_MS);
});

describe("the worker's clock", () => {
  it("decides what is due and stamps attempts with the injected clock (lib/clock.ts)", async () => {
    const env: Record<string, string> = await freshInstall("wh-clock");
    const receiver = await new TestReceiver().start();
    cleanups.push(() => receiver.stop());
    const { appId, webhookId, secret } = await tenantWithWebhook(env, receiver.url);
    receiver.secret = secret;
    const sent = await cli(["webhook:test", "--webhook", webhookId, "--kind", "approved"], env); // due now

    // This process runs the worker's rounds itself, on the install's database.
    for (const key of ["DATABASE_URL", "DATA_DIR", "ENCRYPTION_KEY", "WEBHOOK_ALLOWED_NETWORKS"]) {
      if (env[key] !== undefined) process.env[key] = env[key];
      else delete process.env[key];
    }
    const { setClock } = await import("@/lib/clock");
    const { deliverDueWebhooks } = await import("@/lib/webhooks/worker");
    const { listDeliveries } = await import("@/lib/webhooks/deliveries");
    const { disconnectDb } = await import("@/lib/db/client");
    cleanups.push(() => disconnectDb());
    const ahead = Date.now() + 200_000; // inside the receiver's 300 s tolerance for the signature timestamp
    try {
      setClock({ now: () => new Date(Date.now() - 3600_000) });
      expect(await deliverDueWebhooks(10)).toBe(0); // an hour ago it was not due yet
      setClock({ now: () => new Date(ahead) });
      expect(await deliverDueWebhooks(10)).toBe(1);
    } finally {
      setClock(null);
    }
    expect(receiver.processed.map((e) => e.event_id)).toEqual([sent.event_id]);
    expect(Number(receiver.received[0]!.headers["x-svc-timestamp"])).toBeGreaterThanOrEqual(Math.floor(ahead / 1000));
    const [delivery] = await listDeliveries(appId);
    expect(delivery).toMatchObject({ state: "succeeded", attempts: [expect.objectContaining({ outcome: "succeeded" })] });
    expect(Date.parse(delivery!.delivered_at!)).toBeGreaterThanOrEqual(ahead);
    expect(Date.parse(delivery!.attempts[0]!.started_at)).toBeGreaterThanOrEqual(ahead);
    expect(Date.parse(delivery!.attempts[0]!.ended_at!)).toBeGreaterThanOrEqual(ahead);
  }, INSTALL_TEST_MS);
});
