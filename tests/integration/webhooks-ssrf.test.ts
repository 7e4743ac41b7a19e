import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, shared } from "../support/api";
import { createTestDatabase, sql } from "../support/database";
import { addHostsEntries, hostsFileUnwritable } from "../support/hosts-file";
import { signUpDeveloper, type PortalDeveloper } from "../support/portal";
import { TestReceiver } from "../support/receiver";
import { startServer, type RunningServer } from "../support/server";
import { portalTestApp, registerApprovedWebhook } from "../support/webhook-tenants";

/**
 * Test apps' webhooks pass the same address guard as production apps'
 * (issue 31, item 1): on a production server with no WEBHOOK_ALLOWED_NETWORKS
 * a test app can neither register nor reach loopback, private or link-local
 * (cloud metadata) addresses, and the tenant's delivery log shows no answer;
 * on the shared server, which allows 127.0.0.1/32 (its receivers), a test
 * app's delivery to loopback goes through, with its status but not its
 * answer in the log.
 */
const REFUSED = "Webhook URL must not point to a loopback, private or other non-public address";
const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch(() => {});
});

type Attempt = { outcome: string; status_code: number | null; response_snippet: string | null; error: string | null };
type Delivery = { webhook_id: string; state: string; attempts: Attempt[] };

/** The app's delivery log once nothing is pending any more. */
async function settledLog(dev: PortalDeveloper, appId: string): Promise<Delivery[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await dev.call("GET", `/api/portal/apps/${appId}/webhooks/deliveries?limit=100`);
    expect(res.status).toBe(200);
    const log = res.body.data.deliveries as Delivery[];
    if (!log.some((d) => d.state === "pending") || Date.now() > deadline) return log;
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function sendTestEvent(dev: PortalDeveloper, appId: string, webhookId: string) {
  const res = await dev.call("POST", `/api/portal/apps/${appId}/webhooks/${webhookId}/test`, { json: { kind: "approved" } });
  expect(res.status).toBe(202);
}

describe("a server with no WEBHOOK_ALLOWED_NETWORKS", () => {
  let server: RunningServer;
  let env: Record<string, string>;
  let dev: PortalDeveloper;
  let appId: string;
  /** An internal service on this machine, with an answer worth stealing. */
  const internal = new TestReceiver();

  beforeAll(async () => {
    await internal.start();
    cleanups.push(() => internal.stop());
    const database = await createTestDatabase("wh-ssrf");
    cleanups.push(() => database.drop());
    env = { ...database.env, ENCRYPTION_KEY: randomBytes(32).toString("hex"), WEBHOOK_POLL_MS: "100", WEBHOOK_RETRY_SCHEDULE: "0,1,1" };
    server = await startServer(env);
    cleanups.push(() => server.stop());
    dev = await signUpDeveloper(server.url);
    appId = await portalTestApp(dev);
  });

  it("refuses a test app's webhook on loopback, private or link-local addresses at registration, in the envelope", async () => {
    const urls = [
      internal.url, // http://127.0.0.1:<port>/hook
      `http://localhost:${internal.port}/hook`,
      `http://[::1]:${internal.port}/hook`,
      `https://127.0.0.1:${internal.port}/hook`,
      "https://10.0.0.1/hook",
      "https://169.254.169.254/latest/meta-data/",
      "https://[::ffff:a9fe:a9fe]/latest/meta-data/",
    ];
    for (const url of urls) {
      const res = await dev.call("POST", `/api/portal/apps/${appId}/webhooks`, { json: { url } });
      expect(res.status, url).toBe(400);
      expect(res.body, url).toMatchObject({ success: false, error: { code: "invalid_request" }, data: { errors: { url: [REFUSED] } } });
    }
    expect((await dev.call("GET", `/api/portal/apps/${appId}/webhooks`)).body.data.webhooks).toEqual([]);
  });

  it("delivers nothing to such an address registered before (or by a name that resolves there), and shows no answer", async () => {
    // Endpoints registered before this rule: the same rows with the URL rewritten.
    const targets = [internal.url, `http://localhost:${internal.port}/hook`, "https://10.0.0.1/hook", "https://169.254.169.254/latest/meta-data/"];
    const ids: string[] = [];
    for (const url of targets) {
      const { webhookId: id } = await registerApprovedWebhook(dev, appId, "https://hooks.example/placeholder");
      await sql(env, "UPDATE webhook_endpoints SET url = $2 WHERE id = $1", [id, url]);
      ids.push(id);
    }
    for (const id of ids) await sendTestEvent(dev, appId, id);
    const log = await settledLog(dev, appId);
    for (const id of ids) {
      const delivery = log.find((d) => d.webhook_id === id);
      // Refused before connecting, at once and for good.
      expect(delivery, id).toMatchObject({
        state: "failed",
        attempts: [{ outcome: "failed", status_code: null, response_snippet: null, error: "destination address not allowed" }],
      });
    }
    expect(internal.received).toHaveLength(0);
  });

  const hostsSkip = hostsFileUnwritable();
  it.skipIf(hostsSkip !== null)(`a named host that resolves to loopback is refused at delivery${hostsSkip ? ` (skipped: ${hostsSkip})` : ""}`, async () => {
    const name = `ssrf-${randomBytes(4).toString("hex")}.svc.test`;
    cleanups.push(addHostsEntries([["127.0.0.1", name]], `svc-ssrf-test-${name}`));
    const url = `https://${name}:${internal.port}/hook`;
    const { webhookId: id } = await registerApprovedWebhook(dev, appId, url); // a name is judged by its addresses at each delivery
    await sendTestEvent(dev, appId, id);
    const delivery = (await settledLog(dev, appId)).find((d) => d.webhook_id === id);
    expect(delivery).toMatchObject({
      state: "failed",
      attempts: [{ outcome: "failed", status_code: null, response_snippet: null, error: "destination address not allowed" }],
    });
    expect(internal.received).toHaveLength(0);
  });
});

describe("a server that allows 127.0.0.1/32 (the shared test server)", () => {
  it("delivers a test app's event to loopback through the allowance, showing its status but not its answer", async () => {
    expect(shared().env.WEBHOOK_ALLOWED_NETWORKS).toContain("127.0.0.1/32");
    const receiver = await new TestReceiver().start();
    cleanups.push(() => receiver.stop());
    const dev = await signUpDeveloper();
    const appId = await portalTestApp(dev);
    const created = await dev.call("POST", `/api/portal/apps/${appId}/webhooks`, { json: { url: receiver.url } });
    expect(created.status).toBe(201);
    receiver.secret = created.body.data.secret;
    const id = created.body.data.webhook_id as string;
    expect((await dev.call("POST", `/api/portal/apps/${appId}/webhooks/${id}/approve`)).status).toBe(200);
    await sendTestEvent(dev, appId, id);
    await receiver.waitFor((r) => r.processed.length === 1);
    const [delivery] = await settledLog(dev, appId);
    // The receiver answered {"received":true}: a private destination's answer is not the tenant's to read.
    expect(delivery).toMatchObject({ state: "succeeded", attempts: [{ outcome: "succeeded", status_code: 200, response_snippet: null, error: null }] });
    const res = await api("GET", `/api/portal/apps/${appId}/webhooks/deliveries`, { headers: { cookie: dev.cookie } });
    expect(res.text).not.toContain("received");
  });
});
