import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { portalText } from "@/lib/i18n/portal-en";
import { verifyText } from "../support/verify-text";
import { api, createWorkflow, shared } from "../support/api";
import { useServerDatabase } from "../support/domain";
import { uniqueEmail, verificationLinkFor } from "../support/portal";
import { TestReceiver } from "../support/receiver";
import { keptImages, reviewResults, seedSession } from "../support/review-sessions";
import { startServer, type RunningServer } from "../support/server";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { LocalStripe, signStripePayload } from "../support/stripe-server";
import { ARTIFACTS, chromiumMissing, DESKTOP, launchChromium, expectPortalAccessible } from "./browser";

/**
 * The developer's whole journey through the portal in Debian's Chromium, one
 * account from sign-up to a first approved session, clicking as a developer
 * would (issue 13): sign up, verify the email by the mailed link and see the
 * 100 USD welcome credit; create a live
 * app and an API key, and use the key from outside; build a workflow and
 * open a test session's hosted page; on a test app, register a webhook
 * against a local plain-HTTP receiver (allowed in test), approve it, send
 * every simulated event and see each in the delivery log, resend one;
 * approve a session from the review queue (put in review through the domain
 * layer, as the check executors do); top up 25 USD through the local Stripe
 * server (a refused amount, a cancelled Checkout, a paid one, Stripe's
 * signed webhook delivered twice: credited once); revoke the key and see it
 * refused. Each area's details, axe checks and screenshots are in
 * portal.test.ts, portal-workflows, portal-webhooks and portal-sessions; the
 * top-up's views are axe-checked and screenshotted here.
 *
 * Its own production server: the real Stripe SDK pointed (STRIPE_API_BASE)
 * at the local server speaking Stripe's API (tests/support/stripe-server.ts),
 * on the shared server's database.
 */
useServerDatabase();

const t = portalText;
const WEBHOOK_SECRET = "whsec_portal_browser_test";
const stripe = new LocalStripe();
const receiver = new TestReceiver();
/** Each step clicks through several pages of a production build on a busy machine. */
const STEP = 120_000;

let server: RunningServer;
let smtp: TestSmtp;
let browser: Browser;
let page: Page;

let liveKey = "";
let testApp = { id: "", apiKey: "" };

const suiteName = chromiumMissing ? `portal journey (SKIPPED: ${chromiumMissing})` : "a developer's journey through the portal in Chromium";

const h1 = (name: string | RegExp) => page.getByRole("heading", { level: 1, name });

/** Creates an app of this environment on the apps page; returns its id and its first API key (shown once). */
async function createApp(name: string, environment: "test" | "production") {
  await page.getByRole("link", { name: t.shell.apps, exact: true }).click();
  await page.getByRole("link", { name: t.environment[environment] }).click();
  await page.waitForURL(`**/dashboard/apps?environment=${environment}`);
  await page.getByLabel(t.apps.name).fill(name);
  await page.getByRole("button", { name: t.apps.create(t.environment[environment]) }).click();
  const once = page.getByTestId("secrets-once");
  await expect.poll(() => once.locator("code").first().textContent()).toMatch(environment === "production" ? /^sk_live_/ : /^sk_test_/);
  const apiKey = (await once.locator("code").first().textContent())!;
  await page.getByRole("button", { name: t.common.dismiss }).click();
  await page.getByRole("link", { name: t.apps.open(name), exact: true }).click();
  await page.waitForURL(/\/dashboard\/apps\/[0-9a-f-]{36}$/);
  return { id: page.url().split("/").pop()!, apiKey };
}


function deliver(event: object) {
  const payload = JSON.stringify(event);
  return api("POST", "/api/stripe/webhook", {
    base: server.url,
    headers: { "content-type": "application/json", "stripe-signature": signStripePayload(payload, WEBHOOK_SECRET) },
    raw: payload,
  });
}

/** Types an amount and presses "Top up". */
async function topUp(amount: string) {
  await page.getByLabel(t.wallet.topUpAmount).fill(amount);
  await page.getByRole("button", { name: t.wallet.topUp }).click();
}

describe.skipIf(chromiumMissing !== null)(suiteName, () => {
  beforeAll(async () => {
    fs.mkdirSync(path.join(ARTIFACTS, "screenshots", "portal"), { recursive: true });
    [smtp] = await Promise.all([startSmtp(), stripe.start(), receiver.start()]);
    [server, browser] = await Promise.all([
      startServer({
        ...shared().env,
        SMTP_HOST: smtp.host,
        SMTP_PORT: String(smtp.port),
        STRIPE_SECRET_KEY: stripe.secretKey,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_BASE: stripe.url,
        RATE_LIMIT_PER_MINUTE: "100000",
      }),
      launchChromium("none"),
    ]);
    const context = await browser.newContext({ viewport: DESKTOP, locale: "en-GB", baseURL: server.url });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await stripe.stop();
    await receiver.stop();
    await smtp?.stop();
  });

  it("signs up, verifies the email by the mailed link and sees the 100 USD welcome credit", async () => {
    const email = uniqueEmail("journey");
    await page.goto("/sign-up");
    await page.getByLabel(t.signUp.email, { exact: true }).fill(email);
    await page.getByLabel(t.signUp.password, { exact: true }).fill("correct-horse-battery");
    await page.getByRole("button", { name: t.signUp.submit }).click();
    await page.waitForURL("**/dashboard/apps");
    await page.getByText(t.emailVerification.banner).waitFor();
    await page.goto(await verificationLinkFor(smtp, email));
    await page.getByText(t.emailVerification.verified(true)).waitFor();
    await page.getByRole("link", { name: t.emailVerification.toPortal }).click();
    await page.waitForURL("**/dashboard/apps");
    await page.getByRole("link", { name: t.shell.wallet }).click();
    await h1(t.wallet.title).waitFor();
    await expect.poll(() => page.getByTestId("wallet-balance").textContent()).toBe("100.00 USD");
    await page.getByRole("cell", { name: t.wallet.causes.welcome_credit }).waitFor();
  }, STEP);

  it("creates a live app and an API key, and uses the key from outside", async () => {
    const live = await createApp("Shop", "production");
    await page.getByRole("link", { name: t.appNav.apiKeys }).click();
    await h1(t.apiKeys.title).waitFor();
    await page.getByLabel(t.apiKeys.name).fill("backend");
    await page.getByRole("button", { name: t.apiKeys.create }).click();
    await page.getByText(t.apiKeys.newKey("backend")).waitFor();
    liveKey = (await page.getByTestId("secrets-once").locator("code").textContent())!;
    expect(liveKey).toMatch(/^sk_live_/);
    await page.getByRole("button", { name: t.common.dismiss }).click();
    const listed = await api("GET", "/api/v2/workflows", { base: server.url, headers: { "X-API-Key": liveKey } });
    expect(listed.status).toBe(200);
    expect(listed.body.data.workflows).toEqual([]);

    // A workflow built by clicking, then a test session whose hosted page opens in a new tab.
    await page.getByRole("link", { name: t.appNav.workflows }).click();
    await page.getByRole("link", { name: t.workflows.newWorkflow }).click();
    await h1(t.workflows.newTitle).waitFor();
    await page.getByLabel(t.workflows.name, { exact: true }).fill("KYC");
    for (const feature of ["id_verification", "liveness", "face_match"]) await page.locator(`#feature-${feature}`).check();
    await page.getByRole("button", { name: t.workflows.create }).click();
    await page.waitForURL(/\/workflows\/[0-9a-f-]{36}$/);
    const workflows = await api("GET", "/api/v2/workflows", { base: server.url, headers: { "X-API-Key": liveKey } });
    expect(workflows.body.data.workflows.map((w: { name: string; features: string[] }) => [w.name, w.features])).toEqual([["KYC", ["id_verification", "liveness", "face_match"]]]);
    await page.getByRole("button", { name: t.workflows.createTest }).click();
    const open = page.getByRole("link", { name: new RegExp(t.workflows.openHosted) });
    const [hosted] = await Promise.all([page.context().waitForEvent("page"), open.click()]);
    await hosted.getByRole("heading", { level: 1, name: verifyText("start.heading", { app: "Shop" }) }).waitFor();
    await hosted.close();
    expect(live.id).toMatch(/^[0-9a-f-]{36}$/);
  }, STEP);

  it("registers and approves a webhook on a test app, sends every test event, sees each in the delivery log and resends one", async () => {
    testApp = await createApp("Shop (test)", "test");
    await page.getByRole("link", { name: t.appNav.webhooks }).click();
    await h1(t.webhooks.title).waitFor();
    await page.getByLabel(t.webhooks.url).fill(receiver.url);
    await page.getByRole("button", { name: t.webhooks.register }).click();
    await page.getByRole("heading", { name: t.webhooks.newSecret(receiver.url) }).waitFor();
    receiver.secret = (await page.getByTestId("secrets-once").locator("code").textContent())!;
    await page.getByRole("button", { name: t.common.dismiss }).click();
    await page.getByRole("button", { name: t.webhooks.approveLabel(receiver.url) }).click();
    await page.getByText(t.webhooks.approvedNote(receiver.url)).waitFor();

    const rows = page.getByRole("region", { name: t.common.table(t.webhooks.logHeading) }).locator("tbody tr");
    for (const kind of ["approved", "declined", "in_review", "expired", "duplicate", "bad_signature"] as const) {
      await page.getByRole("button", { name: t.webhooks.send(t.webhooks.kinds[kind]) }).click();
      await page.getByText(new RegExp(`^${t.webhooks.kinds[kind]} test event evt_test_`)).waitFor();
    }
    // Seven deliveries (the duplicate twice), each with its attempt; the receiver verified all but the bad signature.
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(7);
    await expect.poll(() => page.getByTestId("delivery-attempt").count(), { timeout: 20_000 }).toBe(7);
    await expect.poll(() => receiver.received.map((r) => r.status).sort().join(","), { timeout: 20_000 }).toBe("200,200,200,200,200,200,400");
    for (const status of ["APPROVED", "DECLINED", "IN_REVIEW", "EXPIRED"]) {
      expect(await rows.filter({ hasText: `, ${status}` }).count(), status).toBeGreaterThanOrEqual(1);
    }

    const declined = rows.filter({ hasText: "verification.completed, DECLINED" });
    const eventId = (await declined.locator("code").first().textContent())!;
    await page.getByRole("button", { name: t.webhooks.resendLabel(eventId) }).click();
    await expect.poll(() => rows.count()).toBe(8);
    await receiver.waitFor((r) => r.received.filter((x) => x.headers["x-svc-event-id"] === eventId).length === 2);
  }, STEP);

  it("approves a session from the review queue", async () => {
    const tenant = { apiKey: testApp.apiKey };
    const workflow = await createWorkflow(tenant, ["id_verification", "liveness", "face_match", "age"]);
    const sessionId = await seedSession(tenant, workflow, { vendorData: "first-customer", results: reviewResults(true), images: await keptImages() });
    await page.getByRole("link", { name: t.appNav.reviewQueue }).click();
    await h1(t.review.title).waitFor();
    const img = page.getByRole("img", { name: t.review.imageAlt(t.review.images.selfie!, sessionId) });
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0), { timeout: 20_000 }).toBe(true);
    await page.getByRole("button", { name: t.review.approveSession(sessionId) }).click();
    await page.getByText(t.review.decided(sessionId, t.sessions.statuses.APPROVED!)).waitFor();
    await page.getByText(t.review.empty).waitFor();
    const decision = await api("GET", `/api/v2/session/${sessionId}/decision`, { base: server.url, headers: { "X-API-Key": testApp.apiKey } });
    expect(decision.body.data.status).toBe("APPROVED");
  }, STEP);

  it("tops up 25 USD through Stripe Checkout; the webhook, delivered twice, credits it once", async () => {
    await page.getByRole("link", { name: t.shell.wallet }).click();
    await h1(t.wallet.title).waitFor();
    // The welcome credit less the review session's checks (each check is billed as it runs).
    const balance = page.getByTestId("wallet-balance");
    await balance.waitFor();
    const before = (await balance.textContent())!;
    expect(Number.parseFloat(before)).toBeLessThan(100);
    const after = `${(Number.parseFloat(before) + 25).toFixed(2)} USD`;
    await page.getByText(t.wallet.topUpAmountHint("10.00 USD", "10000.00 USD")).waitFor();
    expect(await page.getByText(t.wallet.topUpNotConfigured).count()).toBe(0);
    await expectPortalAccessible(page, "wallet-top-up");

    // Below the minimum: the schema's message next to the field, the typed value kept, no Checkout.
    const sessionsBefore = stripe.sessionRequests().length;
    await topUp("5");
    const amount = page.getByLabel(t.wallet.topUpAmount);
    await page.getByText("A top-up is between 10 and 10000 USD").waitFor();
    expect(await amount.getAttribute("aria-invalid")).toBe("true");
    expect(await amount.inputValue()).toBe("5");
    await expect.poll(() => amount.evaluate((el) => el === document.activeElement)).toBe(true);
    await topUp("25.555");
    await page.getByText("At most 2 decimals (cents)").waitFor();
    expect(stripe.sessionRequests().length).toBe(sessionsBefore);
    await expectPortalAccessible(page, "wallet-top-up-field-error");

    // A Checkout left with "Cancel": a neutral notice, nothing credited.
    await topUp("25");
    await page.waitForURL(`${stripe.url}/c/pay/**`);
    expect(await page.getByRole("link", { name: "Cancel" }).getAttribute("href")).toBe(`${server.url}/dashboard/wallet?top_up=cancelled`);
    await page.getByRole("link", { name: "Cancel" }).click();
    await page.getByText(t.wallet.topUpReturnedCancelled).waitFor();
    // The notice stays; the address is the wallet page's own again (a reload shows no stale notice).
    await expect.poll(() => page.url()).toBe(`${server.url}/dashboard/wallet`);
    expect(await page.getByTestId("wallet-balance").textContent()).toBe(before);
    await expectPortalAccessible(page, "wallet-top-up-cancelled");

    // Paid: back on the wallet page, which says the webhook credits the balance.
    await topUp("25");
    await page.waitForURL(`${stripe.url}/c/pay/**`);
    const checkoutId = page.url().split("/").pop()!;
    await page.getByRole("heading", { name: "Pay 25.00 USD" }).waitFor();
    // Stripe returns to the success page with the session's id in place of {CHECKOUT_SESSION_ID}.
    expect(await page.getByRole("link", { name: "Pay" }).getAttribute("href")).toBe(`${server.url}/dashboard/wallet?top_up=success&session_id=${checkoutId}`);
    await page.getByRole("link", { name: "Pay" }).click();
    await page.getByText(t.wallet.topUpReturnedSuccess).waitFor();
    await expect.poll(() => page.url()).toBe(`${server.url}/dashboard/wallet`);
    await page.getByText(t.wallet.topUpReturnedSuccessBody).waitFor();
    expect(await page.getByTestId("wallet-balance").textContent()).toBe(before);
    await expectPortalAccessible(page, "wallet-top-up-returned");

    // Stripe's signed webhook, delivered twice (Stripe retries): one credit.
    const event = stripe.event("checkout.session.completed", checkoutId);
    const first = await deliver(event);
    expect(first.status).toBe(200);
    expect(first.body.data.outcome).toBe("credited");
    const again = await deliver(event);
    expect(again.status).toBe(200);
    expect(again.body.data.outcome).toBe("already_credited");

    await page.reload();
    await expect.poll(() => page.getByTestId("wallet-balance").textContent()).toBe(after);
    expect(await page.getByText(t.wallet.topUpReturnedSuccess).count()).toBe(0);
    const topUpRows = page.getByRole("row").filter({ has: page.getByRole("cell", { name: t.wallet.causes.top_up, exact: true }) });
    expect(await topUpRows.count()).toBe(1);
    expect(await topUpRows.getByRole("cell").allTextContents()).toEqual([expect.stringMatching(/ UTC$/), t.wallet.causes.top_up, "25.00 USD", after]);
    await expectPortalAccessible(page, "wallet-topped-up");
  });

  it("revokes the live API key, which is then refused", async () => {
    await page.getByRole("link", { name: t.shell.apps, exact: true }).click();
    await page.getByRole("link", { name: t.environment.production }).click();
    await page.waitForURL("**/dashboard/apps?environment=production");
    await page.getByRole("link", { name: t.apps.open("Shop"), exact: true }).click();
    await page.waitForURL(/\/dashboard\/apps\/[0-9a-f-]{36}$/);
    await page.getByRole("link", { name: t.appNav.apiKeys }).click();
    await h1(t.apiKeys.title).waitFor();
    await page.getByRole("button", { name: t.apiKeys.revoke(`backend (${liveKey.slice(0, 12)}…)`) }).click();
    await page.getByRole("dialog", { name: t.apiKeys.revokeConfirm.heading(`backend (${liveKey.slice(0, 12)}…)`) }).getByRole("button", { name: t.apiKeys.revokeConfirm.button }).click();
    await page.getByText(t.apiKeys.revoked(liveKey.slice(0, 12))).waitFor();
    await expect
      .poll(async () => (await api("GET", "/api/v2/workflows", { base: server.url, headers: { "X-API-Key": liveKey } })).status, { timeout: 10_000 })
      .toBe(401);
  }, STEP);
});
