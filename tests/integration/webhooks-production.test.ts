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
    const allowed = new TestReceiver();
    const refused = new TestReceiver();

    beforeAll(async () => {
      cleanups.push(addHostsEntries([["127.0.0.2", ALLOWED_HOST], ["127.0.0.3", REFUSED_HOST]], `svc-webhook-test-${suffix}`));
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-webhook-ca-"));
      cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
      const certificates = makeTestCertificates(dir, [ALLOWED_HOST, REFUSED_HOST]);
      await allowed.start(0, { host: "127.0.0.2", tls: certificates.server, urlHost: ALLOWED_HOST });
      await refused.start(0, { host: "127.0.0.3", tls: certificates.server, urlHost: REFUSED_HOST });
      cleanups.push(() => allowed.stop(), () => refused.stop());

      const database = await createTestDatabase("wh-prod");
      cleanups.push(() => database.drop());
      env = {
        ...database.env,
        ENCRYPTION_KEY: randomBytes(32).toString("hex"),
        WEBHOOK_ALLOWED_NETWORKS: "127.0.0.2/32",
        WEBHOOK_RETRY_SCHEDULE: "0,1,1",
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
      const workflow = await api("POST", "/api/v2/workflows", { base: server.url, headers, json: { name: "prod", features: ["liveness"] } });
      expect(workflow.status).toBe(201);
      const created = await api("POST", "/api/v2/session", {
        base: server.url,
        headers,
        json: { workflow_id: workflow.body.data.workflow.id, vendor_data: "prod-user" },
      });
      expect(created.status).toBe(201);
      const sessionId = created.body.data.session_id as string;

      // The liveness check's result, recorded as the check executor would, ends the session.
      for (const key of ["DATABASE_URL", "DATA_DIR", "ENCRYPTION_KEY"]) {
        if (env[key] !== undefined) process.env[key] = env[key];
        else delete process.env[key];
      }
      const { recordCheckResult } = await import("@/lib/sessions/record-check");
      const { completeSession } = await import("@/lib/sessions/complete-session");
      const { disconnectDb } = await import("@/lib/db/client");
      cleanups.push(() => disconnectDb());
      await recordCheckResult({ sessionId, type: "liveness", status: "passed" });
      await completeSession(sessionId);

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
