import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { api } from "../support/api";
import { createTestDatabase, databaseUrl } from "../support/database";
import { LOCAL_RECEIVER_NETWORKS, TestReceiver } from "../support/receiver";
import { startServer } from "../support/server";
import { insertEvents } from "../support/webhook-outbox";
import { portalTestApp, registerApprovedWebhook } from "../support/webhook-tenants";
import { signUpDeveloper, type PortalDeveloper } from "../support/portal";

/**
 * One tenant's slow receiver does not stall every tenant's webhooks (issue
 * 31, item 2): on a production server of its own, one tenant's endpoint that
 * never answers has a backlog of events; another tenant's event is still
 * delivered promptly, and the hanging endpoint never has more than
 * WEBHOOK_CONCURRENCY_PER_ENDPOINT attempts in flight (read from the
 * delivery log, as its tenant sees it). Behaviour, not timing: the bound on
 * the healthy delivery is far below what the backlog would cost it (each
 * hanging attempt holds its slot for the 20 s timeout) and far above a
 * loaded machine's delays. Speed is bench/webhook-isolation.ts's business.
 * A tenant with several hanging endpoints is held to
 * WEBHOOK_CONCURRENCY_PER_APP in flight, all its endpoints together, so it
 * cannot take every slot either; and a slot that frees up goes to the
 * tenant with nothing in flight before that tenant's older backlog.
 */
const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch(() => {});
});

const CAP = 2;

/** A production server on a database of its own, its worker polling every 100 ms with `worker`'s settings; stopped at the end. */
async function isolationServer(label: string, worker: Record<string, string>) {
  const database = await createTestDatabase(label);
  cleanups.push(() => database.drop());
  const env = {
    ...database.env,
    ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    ...LOCAL_RECEIVER_NETWORKS,
    WEBHOOK_POLL_MS: "100",
    ...worker,
  };
  const server = await startServer(env);
  cleanups.push(() => server.stop());
  return { env, server };
}

/** A developer with a test app and an API key, through the portal. */
async function tenantApp(base: string) {
  const dev = await signUpDeveloper(base);
  const appId = await portalTestApp(dev);
  const key = await dev.call("POST", `/api/portal/apps/${appId}/keys`, { json: { name: "isolation" } });
  expect(key.status).toBe(201);
  return { dev, appId, apiKey: key.body.data.api_key as string };
}

/** A developer with a test app, an API key and an approved webhook to `url`, through the portal. */
async function tenantWithWebhook(base: string, url: string) {
  const { dev, appId, apiKey } = await tenantApp(base);
  return { appId, apiKey, ...(await registerApprovedWebhook(dev, appId, url)) };
}

/** Another tenant whose webhook goes to a receiver that answers at once. */
async function healthyTenant(base: string) {
  const receiver = await new TestReceiver().start();
  cleanups.push(() => receiver.stop());
  const tenant = await tenantWithWebhook(base, receiver.url);
  receiver.secret = tenant.secret;
  return { receiver, tenant };
}

/** A test event of `tenant`'s webhook through the API; waits until `receiver` has processed it (or fails after `ms`). */
async function sendTestEventAndWait(base: string, tenant: { apiKey: string; webhookId: string }, receiver: TestReceiver, ms: number) {
  const sent = await api("POST", `/api/v2/webhooks/${tenant.webhookId}/test`, {
    base,
    headers: { "X-API-Key": tenant.apiKey },
    json: { kind: "approved" },
  });
  expect(sent.status).toBe(202);
  await receiver.waitFor((r) => r.processed.some((e) => e.event_id === sent.body.data.event_id), ms);
}

type LogDelivery = { webhook_id: string; state: string; attempts: Array<{ outcome: string }> };

/** The tenant's delivery log, as the API shows it to them. */
async function deliveryLog(base: string, apiKey: string): Promise<LogDelivery[]> {
  const log = await api("GET", "/api/v2/webhooks/deliveries?limit=1000", { base, headers: { "X-API-Key": apiKey } });
  expect(log.status).toBe(200);
  return log.body.data.deliveries as LogDelivery[];
}

const inFlightAttempts = (d: LogDelivery) => d.attempts.filter((a) => a.outcome === "in_flight").length;

describe("a hanging endpoint with a backlog", () => {
  it("leaves another tenant's delivery on time and holds at most its cap in flight", async () => {
    const hanging = await new TestReceiver().start();
    const healthy = await new TestReceiver().start();
    cleanups.push(() => hanging.stop(), () => healthy.stop());
    hanging.hold = true; // requests arrive and are never answered
    const { env, server } = await isolationServer("wh-isolation", {
      WEBHOOK_CONCURRENCY: "4",
      WEBHOOK_CONCURRENCY_PER_ENDPOINT: String(CAP),
      WEBHOOK_TIMEOUT_MS: "20000",
    });
    const slow = await tenantWithWebhook(server.url, hanging.url);
    const other = await tenantWithWebhook(server.url, healthy.url);
    hanging.secret = slow.secret;
    healthy.secret = other.secret;
    await insertEvents(env, { appId: slow.appId, webhookId: slow.webhookId, url: hanging.url, count: 40 });
    await hanging.waitFor((r) => r.received.length >= CAP, 60_000);

    await sendTestEventAndWait(server.url, other, healthy, 15_000);

    // The slow tenant's log: exactly the cap in flight (attempts time out after 20 s and the next ones take their slots).
    const deliveries = await deliveryLog(server.url, slow.apiKey);
    expect(deliveries).toHaveLength(40);
    expect(deliveries.reduce((n, d) => n + inFlightAttempts(d), 0)).toBe(CAP);

    // The claim reaches endpoints and their due deliveries through the claim's indexes, not a scan of the backlog.
    const { claimStatement } = await import("@/lib/webhooks/worker");
    const { valuesOf } = await import("@/lib/db/typed-sql");
    const client = new pg.Client({ connectionString: databaseUrl(env) });
    await client.connect();
    try {
      await client.query("SET enable_seqscan = off"); // small tables: price scans out, as a large outbox would
      const at = new Date();
      const values = valuesOf(claimStatement, { at, limit: 4, leaseEnd: at, perEndpoint: CAP, perApp: 3 });
      const plan = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN ${claimStatement.text}`, values);
      const text = plan.rows.map((r) => r["QUERY PLAN"]).join("\n");
      expect(text).toContain("webhook_deliveries_state_endpoint_id_next_attempt_at_idx");
      expect(text).toContain("webhook_deliveries_state_endpoint_id_locked_until_idx");
      expect(text).toContain("webhook_deliveries_state_app_id_locked_until_idx");
      expect(text).not.toMatch(/Seq Scan on webhook_deliveries/);
    } finally {
      await client.end();
    }
  }, 180_000);
});

/** `count` approved webhooks of the tenant's app, each to a receiver of its own that never answers, each with `backlog` due events. */
async function hangingEndpoints(env: Record<string, string>, tenant: { dev: PortalDeveloper; appId: string }, count: number, backlog: number) {
  const receivers: TestReceiver[] = [];
  for (let i = 0; i < count; i++) {
    const receiver = await new TestReceiver().start();
    cleanups.push(() => receiver.stop()); // before the server's stop: its held attempts end at once
    receiver.hold = true;
    const hook = await registerApprovedWebhook(tenant.dev, tenant.appId, receiver.url);
    receiver.secret = hook.secret;
    receivers.push(receiver);
    await insertEvents(env, { appId: tenant.appId, webhookId: hook.webhookId, url: receiver.url, count: backlog });
  }
  return receivers;
}

/**
 * Samples the attempts in flight (open rows of the delivery log) per app and
 * per endpoint until stopped, keeping the highest counts seen.
 */
function sampleInFlight(env: Record<string, string>) {
  const most = { app: new Map<string, number>(), endpoint: new Map<string, number>() };
  const keepMax = (m: Map<string, number>, key: string, n: number) => m.set(key, Math.max(m.get(key) ?? 0, n));
  let running = true;
  const client = new pg.Client({ connectionString: databaseUrl(env) });
  client.on("error", () => {}); // the database going away at clean-up ends the loop with its query's error
  const done = (async () => {
    await client.connect();
    try {
      while (running) {
        const { rows } = await client.query<{ app_id: string; endpoint_id: string; n: number }>(
          `SELECT d.app_id, d.endpoint_id, count(*)::int AS n FROM webhook_attempts a
             JOIN webhook_deliveries d ON d.id = a.delivery_id
            WHERE a.outcome IS NULL GROUP BY d.app_id, d.endpoint_id`,
        );
        const perApp = new Map<string, number>();
        for (const r of rows) {
          keepMax(most.endpoint, r.endpoint_id, r.n);
          perApp.set(r.app_id, (perApp.get(r.app_id) ?? 0) + r.n);
        }
        for (const [app, n] of perApp) keepMax(most.app, app, n);
        await new Promise((r) => setTimeout(r, 50)); // the next sample, not a wait for a condition
      }
    } finally {
      await client.end();
    }
  })();
  done.catch(() => {}); // surfaced by stop(); a failed test never calls it
  return {
    async stop() {
      running = false;
      await done;
      return most;
    },
  };
}

describe("one tenant's several hanging endpoints", () => {
  it("hold at most the per-app cap in flight together, and another tenant's delivery still arrives", async () => {
    const PER_ENDPOINT = 2;
    const PER_APP = 4;
    const { env, server } = await isolationServer("wh-isolation-app", {
      // 5 endpoints x 2 = 10 attempts the endpoint cap alone would allow: more than the worker's 6 slots.
      WEBHOOK_CONCURRENCY: "6",
      WEBHOOK_CONCURRENCY_PER_ENDPOINT: String(PER_ENDPOINT),
      WEBHOOK_CONCURRENCY_PER_APP: String(PER_APP),
      WEBHOOK_TIMEOUT_MS: "60000",
    });
    const slow = await tenantApp(server.url);
    const hanging = await hangingEndpoints(env, slow, 5, 8);
    const { receiver: healthy, tenant: other } = await healthyTenant(server.url);
    const sampler = sampleInFlight(env);
    cleanups.push(() => sampler.stop());

    const heldRequests = () => hanging.reduce((n, r) => n + r.received.length, 0);
    await hanging[0]!.waitFor(() => heldRequests() >= PER_APP, 60_000);
    // Each hanging attempt holds its slot for 60 s: without the per-app cap the worker's slots are all taken.
    await sendTestEventAndWait(server.url, other, healthy, 30_000);

    const most = await sampler.stop();
    expect(heldRequests()).toBe(PER_APP);
    expect(most.app.get(slow.appId)).toBe(PER_APP);
    for (const n of most.endpoint.values()) expect(n).toBeLessThanOrEqual(PER_ENDPOINT);

    // What the tenant sees in its delivery log: the app's cap in flight, at most the endpoint cap per endpoint.
    const deliveries = await deliveryLog(server.url, slow.apiKey);
    expect(deliveries).toHaveLength(40);
    expect(deliveries.reduce((n, d) => n + inFlightAttempts(d), 0)).toBe(PER_APP);
    const perWebhook = new Map<string, number>();
    for (const d of deliveries) perWebhook.set(d.webhook_id, (perWebhook.get(d.webhook_id) ?? 0) + inFlightAttempts(d));
    for (const n of perWebhook.values()) expect(n).toBeLessThanOrEqual(PER_ENDPOINT);
  }, 180_000);
});

describe("a worker whose every slot one tenant's hanging endpoints hold", () => {
  it("gives the next free slot to another tenant's new event before that tenant's older backlog", async () => {
    const { env, server } = await isolationServer("wh-isolation-order", {
      // The app cap lets the hanging tenant fill the worker: only the claim's order decides who gets a freed slot.
      WEBHOOK_CONCURRENCY: "4",
      WEBHOOK_CONCURRENCY_PER_ENDPOINT: "2",
      WEBHOOK_CONCURRENCY_PER_APP: "4",
      WEBHOOK_TIMEOUT_MS: "3000",
    });
    const slow = await tenantApp(server.url);
    const hanging = await hangingEndpoints(env, slow, 2, 100);
    const { receiver: healthy, tenant: other } = await healthyTenant(server.url);
    await hanging[0]!.waitFor(() => hanging.every((r) => r.received.length >= 2), 60_000);

    // Every slot is held for 3 s at a time; oldest first, the 196 older events would take about 150 s.
    await sendTestEventAndWait(server.url, other, healthy, 30_000);
  }, 180_000);
});
