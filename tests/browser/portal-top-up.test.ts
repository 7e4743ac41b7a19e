import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { en } from "@/lib/i18n/en";
import { api, shared } from "../support/api";
import { uniqueEmail } from "../support/portal";
import { startServer, type RunningServer } from "../support/server";
import { LocalStripe, signStripePayload } from "../support/stripe-server";
import { ARTIFACTS, chromiumMissing, DESKTOP, launchChromium, expectPortalAccessible } from "./browser";

/**
 * Wallet top-up from the portal in Debian's Chromium, with the production
 * server and the real Stripe SDK pointed (STRIPE_API_BASE) at the local
 * server speaking Stripe's API (tests/support/stripe-server.ts), whose
 * Checkout page the browser follows: sign up, a refused amount (its error
 * next to the field, what was typed kept), a cancelled Checkout, a paid one,
 * Stripe's signed `checkout.session.completed` delivered twice to
 * /api/stripe/webhook, and the wallet page showing 125 USD and one top-up.
 * The wallet page without Stripe is in portal.test.ts. Every state is
 * screenshotted and axe-checked (test-artifacts/screenshots/portal/).
 */
const t = en.portal;
const WEBHOOK_SECRET = "whsec_portal_browser_test";
const stripe = new LocalStripe();

let server: RunningServer;
let browser: Browser;
let page: Page;

const suiteName = chromiumMissing ? `portal wallet top-up (SKIPPED: ${chromiumMissing})` : "portal wallet top-up in Chromium";


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
    await stripe.start();
    [server, browser] = await Promise.all([
      startServer({
        ...shared().env,
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
  });

  it("tops up 25 USD through Stripe Checkout; the webhook, delivered twice, credits it once", async () => {
    await page.goto("/sign-up");
    await page.getByLabel(t.signUp.email, { exact: true }).fill(uniqueEmail("top-up"));
    await page.getByLabel(t.signUp.password, { exact: true }).fill("correct-horse-battery");
    await page.getByRole("button", { name: t.signUp.submit }).click();
    await page.waitForURL("**/dashboard/apps");
    await page.getByRole("link", { name: t.shell.wallet }).click();
    await page.getByRole("heading", { level: 1, name: t.wallet.title }).waitFor();
    await expect.poll(() => page.getByTestId("wallet-balance").textContent()).toBe("100.00 USD");
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
    expect(await page.getByTestId("wallet-balance").textContent()).toBe("100.00 USD");
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
    expect(await page.getByTestId("wallet-balance").textContent()).toBe("100.00 USD");
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
    await expect.poll(() => page.getByTestId("wallet-balance").textContent()).toBe("125.00 USD");
    expect(await page.getByText(t.wallet.topUpReturnedSuccess).count()).toBe(0);
    const topUpRows = page.getByRole("row").filter({ has: page.getByRole("cell", { name: t.wallet.causes.top_up, exact: true }) });
    expect(await topUpRows.count()).toBe(1);
    expect(await topUpRows.getByRole("cell").allTextContents()).toEqual([expect.stringMatching(/ UTC$/), t.wallet.causes.top_up, "25.00 USD", "125.00 USD"]);
    await expectPortalAccessible(page, "wallet-topped-up");
  });
});
