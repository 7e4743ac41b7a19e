import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli } from "../support/cli";
import { createTestDatabase, sql, type TestDatabase } from "../support/database";
import { TestReceiver } from "../support/receiver";
import { baseEnv, freePort, ROOT, startServer, type RunningServer } from "../support/server";

/**
 * Durability and scale-out of delivery, each on a database of its own:
 * an event outlives a server restart while its receiver is down, and two
 * worker processes over one outbox deliver every event exactly once.
 */
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const fn of cleanups.reverse()) await fn().catch(() => {});
});

async function freshInstall(label: string, extra: Record<string, string> = {}) {
  const database: TestDatabase = await createTestDatabase(label);
  cleanups.push(() => database.drop());
  const env = { ...database.env, ENCRYPTION_KEY: randomBytes(32).toString("hex"), ...extra };
  return env;
}

async function tenantWithWebhook(env: Record<string, string>, url: string) {
  const dev = await cli(["developer:create", "--email", `w${randomUUID()}@example.com`, "--password", "worker-password-1"], env);
  const app = await cli(["app:create", "--org", dev.organization_id, "--name", "W", "--env", "test"], env);
  const hook = await cli(["webhook:create", "--app", app.app_id, "--url", url, "--approve"], env);
  return { appId: app.app_id as string, webhookId: hook.webhook_id as string, secret: hook.secret as string };
}

function startWorker(env: Record<string, string>): ChildProcess {
  const tsx = path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");
  const child = spawn(process.execPath, [tsx, "bin/worker.ts"], { cwd: ROOT, env: baseEnv(env), stdio: "ignore" });
  cleanups.push(
    () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(null);
        child.once("exit", resolve);
        child.kill("SIGTERM");
      }),
  );
  return child;
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
  });
});

describe("two workers over one outbox", () => {
  it("deliver each of 200 events exactly once", async () => {
    const env = await freshInstall("wh-workers", { WEBHOOK_POLL_MS: "50", WEBHOOK_CONCURRENCY: "8" });
    const receiver = await new TestReceiver().start();
    cleanups.push(() => receiver.stop());
    const { appId, webhookId, secret } = await tenantWithWebhook(env, receiver.url);
    receiver.secret = secret;

    startWorker(env);
    // The second worker starts once the first one hosts or reaches the database.
    await new Promise((r) => setTimeout(r, 3000));
    startWorker(env);
    await new Promise((r) => setTimeout(r, 3000));

    // 200 events written straight into the outbox, as 200 sessions ending at once would.
    const ids = Array.from({ length: 200 }, (_, i) => `evt_load_${i}_${randomBytes(4).toString("hex")}`);
    const values = ids
      .map((id, i) => `('${id}', '${appId}', NULL, 'verification.approved', '${JSON.stringify({
        event_id: id, type: "verification.approved", session_id: `s${i}`, status: "APPROVED", vendor_data: null,
        decision: "approved", occurred_at: new Date().toISOString(),
      })}'::jsonb)`)
      .join(",");
    await sql(env, `INSERT INTO webhook_events (id, app_id, session_id, type, payload) VALUES ${values}`);
    await sql(
      env,
      `INSERT INTO webhook_deliveries (id, event_id, app_id, endpoint_id, url, next_attempt_at, updated_at)
       SELECT gen_random_uuid()::text, e.id, e.app_id, $1, $2, now(), now() FROM webhook_events e
        WHERE e.app_id = $3`,
      [webhookId, receiver.url, appId],
    );
    await receiver.waitFor((r) => r.processed.length === 200, 60_000);
    await new Promise((r) => setTimeout(r, 1000));
    expect(receiver.received).toHaveLength(200);
    expect(new Set(receiver.received.map((r) => r.headers["x-svc-event-id"])).size).toBe(200);
    const rows = await sql(env, `SELECT state, attempt_count FROM webhook_deliveries WHERE app_id = $1`, [appId]);
    expect(rows.every((r) => r.state === "succeeded" && r.attempt_count === 1)).toBe(true);
  });
});
