import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import pg from "pg";
import { cli } from "../tests/support/cli";
import { LOCAL_RECEIVER_NETWORKS } from "../tests/support/receiver";
import { baseEnv, ROOT } from "../tests/support/server";

/**
 * Webhook delivery: events per second delivered to a local receiver, and the
 * lag from the moment an event is committed to the outbox to its receipt
 * (p50, p99), with 1 and then 2 worker processes (`npm run worker`).
 */
type Stats = { workers: number; throughput: number; p50: number; p99: number };

export function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/**
 * `count` events of an app with one due delivery each to one webhook,
 * committed at once straight into the outbox; returns each event id with
 * the time it was committed.
 */
export async function enqueueEvents(client: pg.Client, hook: { appId: string; webhookId: string; url: string }, count: number): Promise<Map<string, number>> {
  const ids = Array.from({ length: count }, () => `evt_bench_${randomUUID().replace(/-/g, "")}`);
  await client.query(
    `WITH e AS (
       INSERT INTO webhook_events (id, app_id, type, payload)
       SELECT id, $2, 'verification.approved',
              jsonb_build_object('event_id', id, 'type', 'verification.approved', 'session_id', id, 'status', 'APPROVED',
                                 'vendor_data', null, 'decision', 'approved', 'occurred_at', now())
         FROM unnest($1::text[]) AS id
       RETURNING id
     )
     INSERT INTO webhook_deliveries (id, event_id, app_id, endpoint_id, url, next_attempt_at, updated_at)
     SELECT gen_random_uuid()::text, e.id, $2, $3, $4, now() AT TIME ZONE 'UTC', now() FROM e`,
    [ids, hook.appId, hook.webhookId, hook.url],
  );
  const at = Date.now();
  return new Map(ids.map((id) => [id, at]));
}

export async function webhookBench(serverEnv: Record<string, string>): Promise<Stats[]> {
  // The receiver is on 127.0.0.1: allowed by configuration, as an operator would.
  const env: Record<string, string> = { ...serverEnv, ...LOCAL_RECEIVER_NETWORKS };
  const receivedAt = new Map<string, number>();
  const receiver = http.createServer((req, res) => {
    const id = req.headers["x-svc-event-id"] as string;
    req.resume();
    req.on("end", () => {
      if (!receivedAt.has(id)) receivedAt.set(id, Date.now());
      res.end("ok");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const dev = await cli(["developer:create", "--email", `wh${randomUUID()}@example.com`, "--password", "bench-password-1"], env);
  const app = await cli(["app:create", "--org", dev.organization_id, "--name", "WH", "--env", "test"], env);
  const hook = await cli(["webhook:create", "--app", app.app_id, "--url", url, "--approve"], env);
  const client = new pg.Client({ connectionString: env.DATABASE_URL });
  await client.connect();

  const enqueue = (count: number) => enqueueEvents(client, { appId: app.app_id, webhookId: hook.webhook_id, url }, count);

  async function waitAll(ids: Iterable<string>, timeoutMs = 120_000) {
    const list = [...ids];
    const deadline = Date.now() + timeoutMs;
    while (!list.every((id) => receivedAt.has(id))) {
      if (Date.now() > deadline) throw new Error("webhook bench: deliveries did not arrive in time");
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  const workers: ChildProcess[] = [];
  const tsx = path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");
  const results: Stats[] = [];
  try {
    for (const count of [1, 2]) {
      while (workers.length < count) {
        workers.push(spawn(process.execPath, [tsx, "bin/worker.ts"], { cwd: ROOT, env: baseEnv({ ...env, WEBHOOK_POLL_MS: "100" }), stdio: "ignore" }));
      }
      await new Promise((r) => setTimeout(r, 4000)); // workers connect and warm up
      // Throughput: 2,000 events at once.
      const burst = await enqueue(2000);
      const start = Math.min(...burst.values());
      await waitAll(burst.keys());
      const end = Math.max(...[...burst.keys()].map((id) => receivedAt.get(id)!));
      const throughput = burst.size / ((end - start) / 1000);
      // Lag: 25 events every 100 ms for 5 s (250/s offered).
      const lags: number[] = [];
      const steady: Array<Map<string, number>> = [];
      for (let i = 0; i < 50; i++) {
        steady.push(await enqueue(25));
        await new Promise((r) => setTimeout(r, 100));
      }
      for (const batch of steady) {
        await waitAll(batch.keys());
        for (const [id, at] of batch) lags.push(receivedAt.get(id)! - at);
      }
      lags.sort((a, b) => a - b);
      results.push({ workers: count, throughput, p50: percentile(lags, 50), p99: percentile(lags, 99) });
    }
  } finally {
    for (const w of workers) w.kill("SIGTERM");
    await client.end();
    receiver.close();
  }
  return results;
}
