import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { api } from "../support/api";
import { createTestDatabase, databaseUrl } from "../support/database";
import { LOCAL_RECEIVER_NETWORKS, TestReceiver } from "../support/receiver";
import { startServer } from "../support/server";
import { insertEvents } from "../support/webhook-outbox";
import { portalTestApp, registerApprovedWebhook } from "../support/webhook-tenants";
import { signUpDeveloper } from "../support/portal";

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
 */
const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch(() => {});
});

const CAP = 2;

/** A developer with a test app, an API key and an approved webhook to `url`, through the portal. */
async function tenantWithWebhook(base: string, url: string) {
  const dev = await signUpDeveloper(base);
  const appId = await portalTestApp(dev);
  const key = await dev.call("POST", `/api/portal/apps/${appId}/keys`, { json: { name: "isolation" } });
  expect(key.status).toBe(201);
  return { appId, apiKey: key.body.data.api_key as string, ...(await registerApprovedWebhook(dev, appId, url)) };
}

describe("a hanging endpoint with a backlog", () => {
  it("leaves another tenant's delivery on time and holds at most its cap in flight", async () => {
    const database = await createTestDatabase("wh-isolation");
    cleanups.push(() => database.drop());
    const env = {
      ...database.env,
      ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      ...LOCAL_RECEIVER_NETWORKS,
      WEBHOOK_POLL_MS: "100",
      WEBHOOK_CONCURRENCY: "4",
      WEBHOOK_CONCURRENCY_PER_ENDPOINT: String(CAP),
      WEBHOOK_TIMEOUT_MS: "20000",
    };
    const hanging = await new TestReceiver().start();
    const healthy = await new TestReceiver().start();
    cleanups.push(() => hanging.stop(), () => healthy.stop());
    hanging.hold = true; // requests arrive and are never answered
    const server = await startServer(env);
    cleanups.push(() => server.stop());
    const slow = await tenantWithWebhook(server.url, hanging.url);
    const other = await tenantWithWebhook(server.url, healthy.url);
    hanging.secret = slow.secret;
    healthy.secret = other.secret;
    await insertEvents(env, { appId: slow.appId, webhookId: slow.webhookId, url: hanging.url, count: 40 });
    await hanging.waitFor((r) => r.received.length >= CAP, 60_000);

    const sent = await api("POST", `/api/v2/webhooks/${other.webhookId}/test`, {
      base: server.url,
      headers: { "X-API-Key": other.apiKey },
      json: { kind: "approved" },
    });
    expect(sent.status).toBe(202);
    await healthy.waitFor((r) => r.processed.some((e) => e.event_id === sent.body.data.event_id), 15_000);

    // The slow tenant's log: exactly the cap in flight (attempts time out after 20 s and the next ones take their slots).
    const log = await api("GET", "/api/v2/webhooks/deliveries?limit=1000", { base: server.url, headers: { "X-API-Key": slow.apiKey } });
    expect(log.status).toBe(200);
    const deliveries = log.body.data.deliveries as Array<{ state: string; attempts: Array<{ outcome: string }> }>;
    expect(deliveries).toHaveLength(40);
    const inFlight = deliveries.flatMap((d) => d.attempts).filter((a) => a.outcome === "in_flight");
    expect(inFlight).toHaveLength(CAP);

    // The claim reaches endpoints and their due deliveries through the claim's indexes, not a scan of the backlog.
    const { CLAIM_DUE_DELIVERIES } = await import("@/lib/webhooks/worker");
    const client = new pg.Client({ connectionString: databaseUrl(env) });
    await client.connect();
    try {
      await client.query("SET enable_seqscan = off"); // small tables: price scans out, as a large outbox would
      const at = new Date().toISOString();
      const plan = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN ${CLAIM_DUE_DELIVERIES}`, [at, 4, at, CAP]);
      const text = plan.rows.map((r) => r["QUERY PLAN"]).join("\n");
      expect(text).toContain("webhook_deliveries_state_endpoint_id_next_attempt_at_idx");
      expect(text).toContain("webhook_deliveries_state_endpoint_id_locked_until_idx");
      expect(text).not.toMatch(/Seq Scan on webhook_deliveries/);
    } finally {
      await client.end();
    }
  }, 180_000);
});
