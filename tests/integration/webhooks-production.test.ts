import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyWebhook } from "@/sdk/src/webhooks";
import { api } from "../support/api";
import { cli, runCli } from "../support/cli";
import { createTestDatabase } from "../support/database";
import { addHostsEntries, hostsFileUnwritable } from "../support/hosts-file";
import { TestReceiver } from "../support/receiver";
import { startServer, type RunningServer } from "../support/server";
import { makeTestCertificates, testCaUnavailable } from "../support/test-ca";

/**
 * The path production takes: a production server of its own (NODE_ENV=production,
 * the address guard on) delivering a production app's webhooks to named hosts
 * over HTTPS. The names resolve through the system resolver (entries added to
 * /etc/hosts for the test) to loopback addresses; the receivers' certificate
 * comes from a certificate authority made here, which the server trusts
 * through Node's NODE_EXTRA_CA_CERTS. WEBHOOK_ALLOWED_NETWORKS allows
 * 127.0.0.2 only: the host on 127.0.0.3 stays refused.
 */
const skipReason = hostsFileUnwritable() ?? testCaUnavailable();
const suffix = randomBytes(4).toString("hex");
const ALLOWED_HOST = `hooks-allowed-${suffix}.svc.test`;
const REFUSED_HOST = `hooks-refused-${suffix}.svc.test`;

const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch(() => {});
});

describe.skipIf(skipReason !== null)(
  `production webhooks to named hosts${skipReason ? ` (skipped: ${skipReason})` : ""}`,
  () => {
    let server: RunningServer;
    let env: Record<string, string>;
    let certificates: ReturnType<typeof makeTestCertificates>;
    const allowed = new TestReceiver();
    const refused = new TestReceiver();

    /** The server's database in this process (the test's env), for what only the domain does (a check result) and for the audit trail. */
    async function inServerDatabase() {
      for (const key of ["DATABASE_URL", "DATA_DIR", "ENCRYPTION_KEY"]) {
        if (env[key] !== undefined) process.env[key] = env[key];
        else delete process.env[key];
      }
      const { disconnectDb, db } = await import("@/lib/db/client");
      cleanups.push(() => disconnectDb());
      return { prisma: await db() };
    }

    /** A session of a liveness workflow of the app, ended APPROVED as the check executor would: its outcome event is queued. */
    async function approvedSession(headers: Record<string, string>, vendorData: string): Promise<string> {
      const workflow = await api("POST", "/api/v2/workflows", { base: server.url, headers, json: { name: "prod", features: ["liveness"] } });
      expect(workflow.status).toBe(201);
      const created = await api("POST", "/api/v2/session", {
        base: server.url,
        headers,
        json: { workflow_id: workflow.body.data.workflow.id, vendor_data: vendorData },
      });
      expect(created.status).toBe(201);
      const sessionId = created.body.data.session_id as string;
      await inServerDatabase();
      const { recordCheckResult } = await import("@/lib/sessions/record-check");
      const { completeSession } = await import("@/lib/sessions/complete-session");
      await recordCheckResult({ sessionId, type: "liveness", status: "passed" });
      await completeSession(sessionId);
      return sessionId;
    }

    beforeAll(async () => {
      cleanups.push(addHostsEntries([["127.0.0.2", ALLOWED_HOST], ["127.0.0.3", REFUSED_HOST]], `svc-webhook-test-${suffix}`));
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-webhook-ca-"));
      cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
      certificates = makeTestCertificates(dir, [ALLOWED_HOST, REFUSED_HOST]);
      await allowed.start(0, { host: "127.0.0.2", tls: certificates.server, urlHost: ALLOWED_HOST });
      await refused.start(0, { host: "127.0.0.3", tls: certificates.server, urlHost: REFUSED_HOST });
      cleanups.push(() => allowed.stop(), () => refused.stop());

      const database = await createTestDatabase("wh-prod");
      cleanups.push(() => database.drop());
      env = {
        ...database.env,
        ENCRYPTION_KEY: randomBytes(32).toString("hex"),
        WEBHOOK_ALLOWED_NETWORKS: "127.0.0.2/32",
        WEBHOOK_RETRY_SCHEDULE: "0,1,1,1,1",
        WEBHOOK_POLL_MS: "100",
      };
      server = await startServer({ ...env, NODE_EXTRA_CA_CERTS: certificates.caFile });
      cleanups.push(() => server.stop());
    });

    it("logs the allowed networks at start-up", () => {
      const line = server
        .output()
        .split("\n")
        .find((l) => l.includes("webhook_allowed_networks"));
      expect(JSON.parse(line!)).toMatchObject({ level: "info", webhook_allowed_networks: ["127.0.0.2/32"] });
    });

    it("a production app registers webhooks by host name; an IP literal only when public or allowed", async () => {
      const dev = await cli(["developer:create", "--email", `p${randomUUID()}@example.com`, "--password", "production-password-1"], env);
      const app = await cli(["app:create", "--org", dev.organization_id, "--name", "Prod", "--env", "production"], env);
      const named = await cli(["webhook:create", "--app", app.app_id, "--url", allowed.url], env);
      expect(named.url).toBe(allowed.url);
      expect((await cli(["webhook:create", "--app", app.app_id, "--url", `https://127.0.0.2:${allowed.port}/hook`], env)).url).toBe(
        `https://127.0.0.2:${allowed.port}/hook`,
      );
      for (const url of [`https://127.0.0.3:${refused.port}/hook`, `https://[::ffff:7f00:3]:${refused.port}/hook`, `https://localhost/hook`]) {
        const res = await runCli(["webhook:create", "--app", app.app_id, "--url", url], env);
        expect(res.code, url).not.toBe(0);
        expect(res.stderr + res.stdout).toMatch(/not point to a loopback, private or other non-public address/);
      }
    });

    it("a real session outcome reaches the allowed host signed and acknowledged; the refused host gets nothing and the log stays generic", async () => {
      const dev = await cli(["developer:create", "--email", `p${randomUUID()}@example.com`, "--password", "production-password-1"], env);
      const app = await cli(["app:create", "--org", dev.organization_id, "--name", "Prod", "--env", "production"], env);
      expect(app.api_key).toMatch(/^sk_live_/);
      const good = await cli(["webhook:create", "--app", app.app_id, "--url", allowed.url, "--approve"], env);
      const bad = await cli(["webhook:create", "--app", app.app_id, "--url", refused.url, "--approve"], env);
      allowed.secret = good.secret;
      refused.secret = bad.secret;

      const headers = { "X-API-Key": app.api_key as string };
      const sessionId = await approvedSession(headers, "prod-user");

      await allowed.waitFor((r) => r.processed.some((e) => e.session_id === sessionId));
      const got = allowed.received.find((r) => r.event?.session_id === sessionId)!;
      expect(got.status).toBe(200);
      const event = verifyWebhook(got.body, got.headers, good.secret);
      expect(event).toMatchObject({ type: "verification.approved", status: "APPROVED", decision: "approved", vendor_data: "prod-user" });

      const log = async () => {
        const res = await api("GET", "/api/v2/webhooks/deliveries", { base: server.url, headers });
        return { text: res.text, deliveries: res.body.data.deliveries as any[] };
      };
      const deadline = Date.now() + 30_000;
      let current = await log();
      while (current.deliveries.some((d) => d.state === "pending") && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        current = await log();
      }
      const byWebhook = (id: string) => current.deliveries.find((d) => d.webhook_id === id);
      expect(byWebhook(good.webhook_id)).toMatchObject({
        state: "succeeded",
        session_id: sessionId,
        event_type: "verification.approved",
        last_status: 200,
        attempts: [expect.objectContaining({ number: 1, outcome: "succeeded", status_code: 200, error: null })],
      });
      // Refused before connecting, at once and for good (no retries), with nothing internal in the tenant's log.
      expect(byWebhook(bad.webhook_id)).toMatchObject({
        state: "failed",
        url: refused.url,
        attempt_count: 1,
        attempts: [expect.objectContaining({ number: 1, outcome: "failed", status_code: null, error: "destination address not allowed" })],
      });
      expect(current.text).not.toContain("127.0.0.3");
      expect(refused.received).toHaveLength(0);
      // The operator's log names the host and the address that was refused.
      const refusal = server
        .output()
        .split("\n")
        .find((l) => l.includes("127.0.0.3") && l.includes(REFUSED_HOST));
      expect(JSON.parse(refusal!)).toMatchObject({ level: "warn", error: "destination address not allowed" });
    });

    // ------------------------------------------------------------------
    // Disable, enable and delete (issue 33 item 16), on this production app path.

    /** A production app of a new developer, through the CLI; its API key's headers. */
    async function productionApp() {
      const dev = await cli(["developer:create", "--email", `p${randomUUID()}@example.com`, "--password", "production-password-1"], env);
      const app = await cli(["app:create", "--org", dev.organization_id, "--name", "Prod", "--env", "production"], env);
      return { appId: app.app_id as string, headers: { "X-API-Key": app.api_key as string }, keyPrefix: (app.api_key as string).slice(0, 12) };
    }

    /** An HTTPS receiver on the allowed host, and an approved webhook of the app to it (the receiver verifies with its secret). */
    async function receiverWithWebhook(appId: string) {
      const receiver = await new TestReceiver().start(0, { host: "127.0.0.2", tls: certificates.server, urlHost: ALLOWED_HOST });
      cleanups.push(() => receiver.stop());
      const hook = await cli(["webhook:create", "--app", appId, "--url", receiver.url, "--approve"], env);
      receiver.secret = hook.secret;
      return { receiver, webhookId: hook.webhook_id as string };
    }

    async function deliveryLog(headers: Record<string, string>): Promise<any[]> {
      const res = await api("GET", "/api/v2/webhooks/deliveries", { base: server.url, headers });
      expect(res.status).toBe(200);
      return res.body.data.deliveries;
    }

    async function sendTestEvent(headers: Record<string, string>, webhookId: string): Promise<string> {
      const res = await api("POST", `/api/v2/webhooks/${webhookId}/test`, { base: server.url, headers, json: { kind: "approved" } });
      expect(res.status, res.text).toBe(202);
      return res.body.data.event_id;
    }

    const requestsFor = (receiver: TestReceiver, eventId: string) => receiver.received.filter((r) => r.headers["x-svc-event-id"] === eventId);

    async function auditActions(webhookId: string) {
      const { prisma } = await inServerDatabase();
      const rows = await prisma.auditLog.findMany({ where: { target: webhookId }, orderBy: { createdAt: "asc" } });
      return rows.map((r) => ({ action: r.action, actor: r.actor, data: r.data }));
    }

    it("a disabled webhook gets no new events and holds its pending deliveries; enabled again, they are delivered", async () => {
      const { appId, headers, keyPrefix } = await productionApp();
      const { receiver, webhookId } = await receiverWithWebhook(appId);
      const control = await receiverWithWebhook(appId);

      const disabled = await api("PATCH", `/api/v2/webhooks/${webhookId}`, { base: server.url, headers, json: { active: false } });
      expect(disabled.status, disabled.text).toBe(200);
      expect(disabled.body.data.webhook).toMatchObject({ webhook_id: webhookId, active: false, approved: true });

      // A test event to it is queued but held; a session's outcome goes to the active webhook only.
      const held = await sendTestEvent(headers, webhookId);
      const sessionId = await approvedSession(headers, "while-disabled");
      // The control webhook's later event arrives: the worker has run past the held delivery.
      const later = await sendTestEvent(headers, control.webhookId);
      await control.receiver.waitFor((r) => r.processed.some((e) => e.session_id === sessionId) && r.processed.some((e) => e.event_id === later));
      expect(receiver.received).toHaveLength(0);
      let log = await deliveryLog(headers);
      expect(log.find((d) => d.event_id === held)).toMatchObject({ webhook_id: webhookId, state: "pending", held: true, attempt_count: 0, next_attempt_at: null, attempts: [] });
      expect(log.filter((d) => d.session_id === sessionId).map((d) => d.webhook_id)).toEqual([control.webhookId]);
      expect((await api("GET", "/api/v2/webhooks", { base: server.url, headers })).body.data.webhooks.find((w: any) => w.webhook_id === webhookId).active).toBe(false);

      const enabled = await api("PATCH", `/api/v2/webhooks/${webhookId}`, { base: server.url, headers, json: { active: true } });
      expect(enabled.status, enabled.text).toBe(200);
      expect(enabled.body.data.webhook).toMatchObject({ webhook_id: webhookId, active: true });
      await receiver.waitFor((r) => r.processed.some((e) => e.event_id === held));
      expect(requestsFor(receiver, held).map((r) => r.status)).toEqual([200]);
      // Nothing queued while it was disabled is sent afterwards (as Stripe: no replay).
      const after = await sendTestEvent(headers, webhookId);
      await receiver.waitFor((r) => r.processed.some((e) => e.event_id === after));
      expect(receiver.processed.map((e) => e.event_id)).toEqual([held, after]);
      log = await deliveryLog(headers);
      expect(log.find((d) => d.event_id === held)).toMatchObject({ state: "succeeded", held: false, attempt_count: 1 });

      expect(await auditActions(webhookId)).toEqual([
        { action: "webhook.disabled", actor: `api_key:${keyPrefix}`, data: { url: receiver.url } },
        { action: "webhook.enabled", actor: `api_key:${keyPrefix}`, data: { url: receiver.url } },
      ]);
    });

    it("deleting a webhook cancels its pending delivery, never attempted again; its past deliveries stay in the log", async () => {
      const { appId, headers, keyPrefix } = await productionApp();
      const { receiver, webhookId } = await receiverWithWebhook(appId);
      const control = await receiverWithWebhook(appId);

      const past = await sendTestEvent(headers, webhookId);
      await receiver.waitFor((r) => r.processed.some((e) => e.event_id === past));
      // The receiver now fails: the next event stays pending, retried every second.
      receiver.failNext = 1_000;
      const pending = await sendTestEvent(headers, webhookId);
      await receiver.waitFor((r) => requestsFor(r, pending).length > 0);
      const deleted = await api("DELETE", `/api/v2/webhooks/${webhookId}`, { base: server.url, headers });
      const deletedAt = Date.now();
      expect(deleted.status, deleted.text).toBe(200);
      expect(deleted.body.data).toEqual({ webhook_id: webhookId, deleted: true, cancelled_deliveries: 1 });

      // The control webhook fails twice and succeeds on its third attempt, one second apart: by then the
      // cancelled delivery's next retry (due a second after its last attempt, before the delete) is long past.
      control.receiver.failNext = 2;
      const controlEvent = await sendTestEvent(headers, control.webhookId);
      await control.receiver.waitFor((r) => r.processed.some((e) => e.event_id === controlEvent));
      expect(requestsFor(control.receiver, controlEvent).map((r) => r.status)).toEqual([500, 500, 200]);

      const log = await deliveryLog(headers);
      const cancelled = log.find((d) => d.event_id === pending);
      expect(cancelled).toMatchObject({ webhook_id: null, url: receiver.url, state: "cancelled", held: false, next_attempt_at: null });
      expect(cancelled.attempts.every((a: any) => Date.parse(a.started_at) <= deletedAt)).toBe(true);
      expect(requestsFor(receiver, pending)).toHaveLength(cancelled.attempt_count);
      expect(log.find((d) => d.event_id === past)).toMatchObject({ webhook_id: null, url: receiver.url, state: "succeeded", attempt_count: 1 });

      // Deleting is final: gone from the list, 404 to everything, a past delivery cannot be resent.
      const list = await api("GET", "/api/v2/webhooks", { base: server.url, headers });
      expect(list.body.data.webhooks.map((w: any) => w.webhook_id)).toEqual([control.webhookId]);
      for (const [method, path, json] of [
        ["DELETE", `/api/v2/webhooks/${webhookId}`, undefined],
        ["PATCH", `/api/v2/webhooks/${webhookId}`, { active: true }],
        ["POST", `/api/v2/webhooks/${webhookId}/test`, { kind: "approved" }],
        ["POST", `/api/v2/webhooks/deliveries/${cancelled.delivery_id}/resend`, undefined],
      ] as const) {
        const res = await api(method, path, { base: server.url, headers, json });
        expect(res.status, `${method} ${path}: ${res.text}`).toBe(404);
        expect(res.body.error.code).toBe("not_found");
      }
      expect(await auditActions(webhookId)).toEqual([
        { action: "webhook.deleted", actor: `api_key:${keyPrefix}`, data: { url: receiver.url, cancelled_deliveries: 1 } },
      ]);
    });

    it("PATCH takes only { active: boolean } (400 otherwise); another app's webhook is 404 to PATCH and DELETE and stays as it was", async () => {
      const mine = await productionApp();
      const theirs = await productionApp();
      const hook = await cli(["webhook:create", "--app", theirs.appId, "--url", `https://${ALLOWED_HOST}:1/hook`, "--approve"], env);
      const own = await cli(["webhook:create", "--app", mine.appId, "--url", `https://${ALLOWED_HOST}:2/hook`], env);
      for (const body of [{}, { active: "false" }, { active: null }, { active: false, url: "https://elsewhere.example/hook" }, { approved: true }, []]) {
        const res = await api("PATCH", `/api/v2/webhooks/${own.webhook_id}`, { base: server.url, headers: mine.headers, json: body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body).toMatchObject({ success: false, error: { code: "invalid_request" } });
      }
      const raw = await api("PATCH", `/api/v2/webhooks/${own.webhook_id}`, { base: server.url, headers: { ...mine.headers, "content-type": "application/json" }, raw: "{active:" });
      expect(raw.status).toBe(400);

      for (const [method, json] of [["PATCH", { active: false }], ["DELETE", undefined]] as const) {
        const res = await api(method, `/api/v2/webhooks/${hook.webhook_id}`, { base: server.url, headers: mine.headers, json });
        expect(res.status, `${method}: ${res.text}`).toBe(404);
        expect(res.body).toMatchObject({ success: false, error: { code: "not_found" } });
        expect(res.text).not.toContain(ALLOWED_HOST);
      }
      const unknown = await api("DELETE", `/api/v2/webhooks/${randomUUID()}`, { base: server.url, headers: mine.headers });
      expect(unknown.status).toBe(404);
      const list = await api("GET", "/api/v2/webhooks", { base: server.url, headers: theirs.headers });
      expect(list.body.data.webhooks).toEqual([expect.objectContaining({ webhook_id: hook.webhook_id, active: true, approved: true })]);
    });

    it("the CLI disables, enables and deletes a webhook through the same functions (audited as cli)", async () => {
      const { appId, headers } = await productionApp();
      const hook = await cli(["webhook:create", "--app", appId, "--url", `https://${ALLOWED_HOST}:3/hook`, "--approve"], env);
      const url = hook.url as string;
      expect(await cli(["webhook:disable", "--webhook", hook.webhook_id], env)).toEqual({
        webhook: { webhook_id: hook.webhook_id, url, approved: true, active: false, created_at: expect.any(String), previous_secret_expires_at: null },
      });
      expect((await cli(["webhook:enable", "--webhook", hook.webhook_id], env)).webhook).toMatchObject({ active: true });
      expect(await cli(["webhook:delete", "--webhook", hook.webhook_id], env)).toEqual({ webhook_id: hook.webhook_id, deleted: true, cancelled_deliveries: 0 });
      expect((await api("GET", "/api/v2/webhooks", { base: server.url, headers })).body.data.webhooks).toEqual([]);
      const again = await runCli(["webhook:delete", "--webhook", hook.webhook_id], env);
      expect(again.code).toBe(1);
      expect(JSON.parse(again.stderr.trim().split("\n").at(-1)!).error.code).toBe("not_found");
      expect((await auditActions(hook.webhook_id)).map((a) => [a.action, a.actor])).toEqual([
        ["webhook.disabled", "cli"],
        ["webhook.enabled", "cli"],
        ["webhook.deleted", "cli"],
      ]);
    });
  },
);

describe("WEBHOOK_ALLOWED_NETWORKS at start-up", () => {
  it("a bad entry stops the production server with a config error naming it", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-webhook-config-"));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const start = startServer({ DATA_DIR: dataDir, ENCRYPTION_KEY: randomBytes(32).toString("hex"), WEBHOOK_ALLOWED_NETWORKS: "127.0.0.2/32,10.0.0/8" });
    await expect(start).rejects.toThrow(/Invalid configuration:\s+WEBHOOK_ALLOWED_NETWORKS: not a CIDR .*: 10\.0\.0\/8/);
  });
});
