// `npm run bench:webhooks`: one tenant's 5 endpoints that never answer, with
// 1,000 events queued for them, must not delay another tenant's deliveries.
// A production server (its own webhook worker, default WEBHOOK_CONCURRENCY,
// WEBHOOK_CONCURRENCY_PER_ENDPOINT and WEBHOOK_CONCURRENCY_PER_APP: 5 x 4
// endpoint slots would be more than the worker's 16) on PostgreSQL (BENCH_DATABASE_URL,
// default postgresql://postgres@127.0.0.1:5432/postgres; a database of its
// own is created and dropped). The healthy tenant's events arrive at a
// steady rate; their lag (commit to receipt) is measured first alone
// (baseline) and then beside the hanging tenant's backlog, in the same run.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { cli } from "../tests/support/cli";
import { LOCAL_RECEIVER_NETWORKS } from "../tests/support/receiver";
import { startServer } from "../tests/support/server";
import { createBenchInstall } from "./database";
import { enqueueEvents, percentile } from "./webhooks";
import { printTable } from "./table";

const BACKLOG = 1000;
const HANGING_ENDPOINTS = 5;
const RATE_PER_SECOND = 20;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const TARGET_P99_MS = 1000;

type Lag = { phase: string; events: number; p50: number; p99: number };

/** A receiver on 127.0.0.1: `hang` leaves every request unanswered; else it answers 200 and notes when each event arrived. */
async function receiver(hang: boolean) {
  const receivedAt = new Map<string, number>();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const id = req.headers["x-svc-event-id"] as string;
      if (!receivedAt.has(id)) receivedAt.set(id, Date.now());
      if (!hang) res.end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const stop = () => {
    server.closeAllConnections();
    server.close();
  };
  return { url, receivedAt, stop };
}

/** A tenant's app with an approved webhook to each of `urls`. */
async function tenant(env: Record<string, string>, label: string, urls: string[]) {
  const dev = await cli(["developer:create", "--email", `${label}-${randomUUID()}@example.com`, "--password", "bench-password-1"], env);
  const app = await cli(["app:create", "--org", dev.organization_id, "--name", label, "--env", "test"], env);
  const hooks = [];
  for (const url of urls) {
    const hook = await cli(["webhook:create", "--app", app.app_id, "--url", url, "--approve"], env);
    hooks.push({ appId: app.app_id as string, webhookId: hook.webhook_id as string, url });
  }
  return hooks;
}

async function waitFor(condition: () => boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`webhook isolation bench: ${what} did not happen in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function webhookIsolationBench(): Promise<Lag[]> {
  const install = await createBenchInstall("wh");
  const env = { ...install.env, ...LOCAL_RECEIVER_NETWORKS };
  const server = await startServer({ ...env, RATE_LIMIT_PER_MINUTE: "100000000" });
  const db = new pg.Client({ connectionString: env.DATABASE_URL });
  await db.connect();
  const healthy = await receiver(false);
  const hanging = await receiver(true);
  try {
    const [good] = await tenant(env, "healthy", [healthy.url]);
    const slow = await tenant(env, "hanging", Array.from({ length: HANGING_ENDPOINTS }, (_, i) => `${hanging.url}-${i}`));

    /** The healthy tenant's events at RATE_PER_SECOND for SECONDS; each one's lag from commit to receipt. */
    const steadyLoad = async (phase: string): Promise<Lag> => {
      const committed = new Map<string, number>();
      const perTick = RATE_PER_SECOND / 10;
      for (let tick = 0; tick < SECONDS * 10; tick++) {
        for (const [id, at] of await enqueueEvents(db, good!, perTick)) committed.set(id, at);
        await new Promise((r) => setTimeout(r, 100));
      }
      await waitFor(() => [...committed.keys()].every((id) => healthy.receivedAt.has(id)), 120_000, `${phase}: every healthy delivery`);
      const lags = [...committed].map(([id, at]) => healthy.receivedAt.get(id)! - at).sort((a, b) => a - b);
      return { phase, events: lags.length, p50: percentile(lags, 50), p99: percentile(lags, 99) };
    };

    await steadyLoad("warm-up");
    const baseline = await steadyLoad("alone (baseline)");
    for (const hook of slow) await enqueueEvents(db, hook, BACKLOG / HANGING_ENDPOINTS);
    await waitFor(() => hanging.receivedAt.size > 0, 30_000, "the hanging endpoints' first attempt");
    const beside = await steadyLoad(`beside ${BACKLOG.toLocaleString("en")} events to ${HANGING_ENDPOINTS} hanging endpoints`);
    return [baseline, beside];
  } finally {
    await db.end();
    await server.stop();
    healthy.stop();
    hanging.stop();
    await install.drop();
  }
}

export function printWebhookIsolation([baseline, beside]: Lag[]) {
  printTable(
    ["healthy tenant's deliveries", "events", "lag p50 ms", "lag p99 ms", "p50 x alone", "p99 x alone"],
    [baseline!, beside!].map((r) => [r.phase, String(r.events), r.p50.toFixed(0), r.p99.toFixed(0), (r.p50 / baseline!.p50).toFixed(2), (r.p99 / baseline!.p99).toFixed(2)]),
  );
  const ok = beside!.p99 < TARGET_P99_MS;
  console.log(`target: the healthy tenant's lag p99 < ${TARGET_P99_MS} ms beside the hanging tenant's backlog: ${beside!.p99.toFixed(0)} ms (${ok ? "met" : "NOT met"})`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  webhookIsolationBench().then(
    (rows) => printWebhookIsolation(rows),
    (err) => {
      process.stderr.write(`${(err as Error).stack ?? err}\n`);
      process.exit(1);
    },
  );
}
