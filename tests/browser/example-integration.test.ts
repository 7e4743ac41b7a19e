import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, useDatabaseOf } from "../support/api";
import { createTestDatabase } from "../support/database";
import { buildExample, startExample, type RunningExample } from "../support/example-app";
import { addHostsEntries, hostsFileUnwritable } from "../support/hosts-file";
import { freePort, startServer, type RunningServer } from "../support/server";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { makeTestCertificates, testCaUnavailable } from "../support/test-ca";
import { startTlsProxy } from "../support/tls-proxy";
import { chromiumMissing, launchChromium } from "./browser";

/**
 * The example integration (examples/nextjs-integration) as an integrator
 * runs it, in the configuration production takes:
 * - the example is built (`npm run build`) and served by `next start`;
 * - our server is a production one (NODE_ENV=production, the webhook
 *   address guard on) on a database of its own, with a **production** app;
 * - the example is reached over HTTPS on a host name (resolved through
 *   /etc/hosts to 127.0.0.2, the one network WEBHOOK_ALLOWED_NETWORKS
 *   allows), through a TLS-terminating proxy in front of `next start`, with a
 *   certificate from a CA made here that the server trusts (the browser is
 *   told to accept it): production apps take only https return URLs and
 *   webhooks, and the example's cookies are Secure;
 * - a person in Chromium signs in to the example with OpenID Connect (email
 *   and one-time code read from a local SMTP server), asks to be verified,
 *   completes the hosted page (location shared), comes back, and sees the
 *   decision the signed webhook brought.
 */
const skipReason = chromiumMissing ?? hostsFileUnwritable() ?? testCaUnavailable();
const suffix = randomBytes(4).toString("hex");
const SHOP_HOST = `example-shop-${suffix}.svc.test`;
const PARIS = { latitude: 48.8566, longitude: 2.3522 };

const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch(() => {});
});

describe.skipIf(skipReason !== null)(`the example integration${skipReason ? ` (skipped: ${skipReason})` : ""}`, () => {
  let server: RunningServer;
  let example: RunningExample;
  let smtp: TestSmtp;
  let browser: Browser;
  let apiKey: string;
  let webhookId: string;
  let shopUrl: string;
  let hookUrl: string;

  beforeAll(async () => {
    buildExample();
    cleanups.push(addHostsEntries([["127.0.0.2", SHOP_HOST]], `svc-example-test-${suffix}`));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-example-ca-"));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const certificates = makeTestCertificates(dir, [SHOP_HOST]);
    const examplePort = await freePort();
    const proxy = await startTlsProxy("127.0.0.2", certificates.server, { host: "127.0.0.1", port: examplePort });
    cleanups.push(() => proxy.stop());
    shopUrl = `https://${SHOP_HOST}:${proxy.port}`;
    hookUrl = `${shopUrl}/api/webhooks`;

    smtp = await startSmtp();
    cleanups.push(() => smtp.stop());
    const database = await createTestDatabase("example");
    cleanups.push(() => database.drop());
    const env = { ...database.env, ENCRYPTION_KEY: randomBytes(32).toString("hex") };
    server = await startServer({
      ...env,
      SMTP_HOST: smtp.host,
      SMTP_PORT: String(smtp.port),
      WEBHOOK_ALLOWED_NETWORKS: "127.0.0.2/32",
      WEBHOOK_POLL_MS: "100",
      NODE_EXTRA_CA_CERTS: certificates.caFile,
    });
    cleanups.push(() => server.stop());

    // The developer's side, as the portal or the admin CLI would set it up.
    useDatabaseOf(env);
    const { createDeveloper } = await import("@/lib/tenancy/create-developer");
    const { createApp } = await import("@/lib/tenancy/create-app");
    const { addRedirectUri, setScopes } = await import("@/lib/tenancy/oidc-settings");
    const { createWebhookEndpoint } = await import("@/lib/tenancy/webhook-endpoints");
    const { disconnectDb } = await import("@/lib/db/client");
    const developer = await createDeveloper({ email: `shop-${suffix}@example.com`, password: "correct-horse-battery", emailVerified: true });
    const app = await createApp({ organizationId: developer.organizationId, name: "Example shop", environment: "production" });
    await addRedirectUri(app.appId, `${shopUrl}/callback`);
    await setScopes(app.appId, ["openid", "profile", "verifications"]);
    const hook = await createWebhookEndpoint({ appId: app.appId, url: hookUrl, approve: true });
    await disconnectDb();
    apiKey = app.apiKey;
    webhookId = hook.webhookId;
    const workflow = await api("POST", "/api/v2/workflows", {
      base: server.url,
      headers: { "X-API-Key": apiKey },
      json: { name: "Example shop: location", features: ["location"] },
    });
    expect(workflow.status).toBe(201);

    example = await startExample(examplePort, {
      SVC_URL: server.url,
      APP_URL: shopUrl,
      SVC_API_KEY: app.apiKey,
      SVC_CLIENT_ID: app.clientId,
      SVC_CLIENT_SECRET: app.clientSecret,
      SVC_WORKFLOW_ID: workflow.body.data.workflow.id,
      SVC_WEBHOOK_SECRET: hook.secret,
      SESSION_SECRET: randomBytes(32).toString("hex"),
    });
    cleanups.push(() => example.stop());
    browser = await launchChromium("none");
    cleanups.push(() => browser.close());
  }, 600_000);

  it("a person signs in with OpenID Connect, is verified on the hosted page, and sees the decision the signed webhook brought", async () => {
    const context = await browser.newContext({ permissions: ["geolocation"], geolocation: PARIS, locale: "en-GB", ignoreHTTPSErrors: true });
    const page = await context.newPage();
    try {
      await page.goto(shopUrl);
      await page.getByRole("link", { name: "Sign in with SVC Identity" }).click();

      // The provider's sign-in pages (openid-client sent PKCE, state and nonce).
      await page.waitForURL((u) => u.href.startsWith(`${server.url}/oidc/interaction/`));
      const email = `person-${suffix}@example.com`;
      await page.locator("#email").fill(email);
      await page.keyboard.press("Enter");
      await page.locator("#code").waitFor();
      const mail = await smtp.next(email);
      await page.locator("#code").fill(mail.raw.match(/^Subject: (\d{6}) is your sign-in code/m)![1]!);
      await page.keyboard.press("Enter");
      await page.getByRole("button", { name: "Allow" }).click();

      // Back at the example: signed in, and the provider's account read (the SDK's account reader) answered.
      await page.getByText(`Signed in as ${email}.`).waitFor();
      await expect.poll(() => page.getByTestId("provider-status").textContent()).toBe("Your account: identity not verified, liveness not verified.");
      const cookie = (await context.cookies(shopUrl)).find((c) => c.name === "example_user");
      expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: "Lax" });
      expect(cookie!.value).not.toContain(email); // sealed, not merely signed

      // The example creates a session with the SDK and sends the person to the hosted page.
      await page.getByRole("button", { name: "Verify my identity" }).click();
      await page.waitForURL((u) => u.href.startsWith(server.url));
      await page.getByRole("button", { name: "Start verification" }).click();
      await page.getByRole("heading", { level: 1, name: "Your location" }).waitFor();
      await page.getByRole("button", { name: "Share my location" }).click();
      await page.getByText("Thanks, your location has been shared.").waitFor();
      await page.getByRole("button", { name: "Continue" }).click();

      // Back at the example: waiting, then the decision the webhook brought (the page refreshes itself).
      await page.waitForURL((u) => u.href.startsWith(`${shopUrl}/?`));
      const back = new URL(page.url());
      const sessionId = back.searchParams.get("session_id")!;
      expect(back.searchParams.get("status")).toBe("approved");
      const entry = page.locator(`li[data-session-id="${sessionId}"]`);
      await expect.poll(() => entry.textContent(), { timeout: 30_000 }).toContain("Decision: APPROVED (location passed), received by signed webhook.");

      // What the server recorded: the session is the person's (vendor_data = their OIDC subject), one delivery, accepted.
      const decision = await api("GET", `/api/v2/session/${sessionId}/decision`, { base: server.url, headers: { "X-API-Key": apiKey } });
      expect(decision.body.data).toMatchObject({ status: "APPROVED", vendor_data: expect.stringMatching(/.+/) });
      const deliveries = await api("GET", "/api/v2/webhooks/deliveries", { base: server.url, headers: { "X-API-Key": apiKey } });
      const forSession = deliveries.body.data.deliveries.filter((d: { session_id: string | null }) => d.session_id === sessionId);
      expect(forSession).toEqual([expect.objectContaining({ webhook_id: webhookId, url: hookUrl, state: "succeeded", last_status: 200, attempt_count: 1 })]);
    } finally {
      await context.close();
    }
  });

  it("the example's webhook refuses a delivery that is not signed with its secret", async () => {
    const body = JSON.stringify({ event_id: "evt_forged", type: "verification.approved", session_id: "sess_x", status: "APPROVED", vendor_data: null, decision: "approved", occurred_at: new Date().toISOString() });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const { createHmac } = await import("node:crypto");
    const forged = createHmac("sha256", "not-the-secret").update(`${timestamp}.${body}`).digest("hex");
    const res = await fetch(`${example.url}/api/webhooks`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-svc-timestamp": timestamp, "x-svc-event-id": "evt_forged", "x-svc-signature": forged },
      body,
    });
    expect(res.status).toBe(400);
  });
});
