import fs from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { portalText } from "@/lib/i18n/portal-en";
import { api, shared } from "../support/api";
import { useServerDatabase } from "../support/domain";
import { signUpDeveloper, uniqueEmail, verificationLinkFor, verificationTokenFor } from "../support/portal";
import { startServer, type RunningServer } from "../support/server";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { ARTIFACTS, axeFindings, chromiumMissing, DESKTOP, launchChromium, expectPortalAccessible, signedInContext } from "./browser";

/**
 * The developer portal in Debian's Chromium, as a developer uses it: sign up,
 * the welcome credit on the wallet, a live app, an API key used from here
 * with fetch and then revoked, the OIDC client's settings, another
 * organization's pages (404), sign out, the sign-in limit, a password reset
 * through the local SMTP server. Every page is screenshotted at phone and
 * desktop size (test-artifacts/screenshots/portal/) and must be axe-clean
 * (no serious or critical finding). A server of its own: mail goes to the
 * local SMTP server, credentials are trusted for 1 s (CREDENTIAL_CACHE_MS),
 * 3 failed sign-ins per account (and IP).
 */
useServerDatabase();

const t = portalText;
const PASSWORD = "correct-horse-battery";

let server: RunningServer;
let smtp: TestSmtp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const email = uniqueEmail("portal");
let appId = "";
let apiKey = "";

const suiteName = chromiumMissing ? `developer portal (SKIPPED: ${chromiumMissing})` : "developer portal in Chromium";
if (chromiumMissing) console.warn(`[tests/browser] skipped: ${chromiumMissing}`);


function h1(view: Page, name: string | RegExp) {
  return view.getByRole("heading", { level: 1, name });
}

describe.skipIf(chromiumMissing !== null)(suiteName, () => {
  beforeAll(async () => {
    fs.mkdirSync(path.join(ARTIFACTS, "screenshots", "portal"), { recursive: true });
    smtp = await startSmtp();
    [server, browser] = await Promise.all([
      startServer({
        ...shared().env,
        SMTP_HOST: smtp.host,
        SMTP_PORT: String(smtp.port),
        CREDENTIAL_CACHE_MS: "1000",
        PORTAL_SIGN_IN_ATTEMPTS_PER_ACCOUNT: "3",
        RATE_LIMIT_PER_MINUTE: "100000",
      }),
      launchChromium("none"),
    ]);
    context = await browser.newContext({ viewport: DESKTOP, locale: "en-GB", baseURL: server.url });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.stop();
    const counts = new Map<string, number>();
    for (const f of axeFindings) counts.set(`${f.impact} ${f.id}: ${f.help}`, (counts.get(`${f.impact} ${f.id}: ${f.help}`) ?? 0) + 1);
    console.log(`axe-core findings over the portal's views (any impact): ${counts.size ? [...counts].map(([k, n]) => `${k} (${n} views)`).join("; ") : "none"}`);
  });

  it("signs up (a field error keeps what was typed), verifies the email by the mailed link and sees the 100 USD welcome credit on the wallet", async () => {
    await page.goto("/sign-up");
    await h1(page, t.signUp.heading).waitFor();
    await expectPortalAccessible(page, "sign-up");
    await page.getByLabel(t.signUp.name).fill("Ada Developer");
    await page.getByLabel(t.signUp.organization).fill("Ada's shop");
    await page.getByLabel(t.signUp.email, { exact: true }).fill(email);
    await page.getByLabel(t.signUp.password, { exact: true }).fill("short");
    await page.getByRole("button", { name: t.signUp.submit }).click();
    await page.getByText("Password must be at least 10 characters").waitFor();
    expect(await page.getByLabel(t.signUp.email, { exact: true }).inputValue()).toBe(email);
    await expectPortalAccessible(page, "sign-up-field-error");
    await page.getByLabel(t.signUp.password, { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: t.signUp.submit }).click();
    await page.waitForURL("**/dashboard/apps");
    await h1(page, t.apps.title).waitFor();
    await expectPortalAccessible(page, "apps-test");

    // Unverified: an empty wallet and the banner on every page, with "send the link again".
    await page.getByRole("link", { name: t.shell.wallet }).click();
    await h1(page, t.wallet.title).waitFor();
    await expect.poll(() => page.getByTestId("wallet-balance").textContent()).toBe("0.00 USD");
    await page.getByText(t.emailVerification.banner).waitFor();
    await expectPortalAccessible(page, "wallet-unverified");
    await verificationTokenFor(smtp, email); // the sign-up's mail; the one asked for below is followed
    await page.getByRole("button", { name: t.emailVerification.resend }).click();
    await page.getByText(t.emailVerification.resent(24)).waitFor();
    const link = await verificationLinkFor(smtp, email);
    expect(link.startsWith(`${server.url}/verify-email#token=emv_`)).toBe(true);
    await page.goto(link);
    await h1(page, t.emailVerification.pageTitle).waitFor();
    await page.getByText(t.emailVerification.verified(true)).waitFor();
    await expect.poll(() => page.url()).not.toContain("token=");
    await expectPortalAccessible(page, "verify-email");
    await page.getByRole("link", { name: t.emailVerification.toPortal }).click();
    await h1(page, t.apps.title).waitFor();
    expect(await page.getByText(t.emailVerification.banner).count()).toBe(0);

    await page.getByRole("link", { name: t.shell.wallet }).click();
    await h1(page, t.wallet.title).waitFor();
    await expect.poll(() => page.getByTestId("wallet-balance").textContent()).toBe("100.00 USD");
    await page.getByRole("cell", { name: t.wallet.causes.welcome_credit }).waitFor();
    // Without the Stripe keys: the button disabled, with why (the top-up itself: portal-top-up.test.ts).
    await page.getByText(t.wallet.topUpNotConfigured).waitFor();
    expect(await page.getByRole("button", { name: t.wallet.topUp }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: t.wallet.topUp }).getAttribute("aria-describedby")).toBe("top-up-status");
    expect(await page.getByLabel(t.wallet.topUpAmount).count()).toBe(0);
    await expectPortalAccessible(page, "wallet");
  });

  it("creates a live app, renames it and creates an API key that works from outside; revoked, it is refused", async () => {
    await page.getByRole("link", { name: t.shell.apps }).click();
    await page.getByRole("link", { name: t.environment.production }).click();
    await page.waitForURL("**/dashboard/apps?environment=production");
    await page.getByText(t.apps.empty(t.environment.production)).waitFor();
    await page.getByLabel(t.apps.name).fill("Shop");
    await page.getByRole("button", { name: t.apps.create(t.environment.production) }).click();
    const once = page.getByTestId("secrets-once");
    await once.waitFor();
    await expect.poll(() => once.locator("code").first().textContent()).toMatch(/^sk_live_/);
    await expectPortalAccessible(page, "app-created");
    await page.getByRole("button", { name: t.common.dismiss }).click();

    await page.getByRole("link", { name: t.apps.open("Shop") }).click();
    await page.waitForURL(/\/dashboard\/apps\/[0-9a-f-]{36}$/);
    appId = page.url().split("/").pop()!;
    await h1(page, t.appSettings.title).waitFor();
    await page.getByLabel(t.apps.name).fill("x".repeat(121));
    await page.getByRole("button", { name: t.appSettings.rename }).click();
    await page.getByText("Name must be 1 to 120 characters").waitFor();
    await page.getByLabel(t.apps.name).fill("Shop EU");
    await page.getByRole("button", { name: t.appSettings.rename }).click();
    await page.getByText(t.appSettings.renamed).waitFor();
    await expectPortalAccessible(page, "app-settings");

    await page.getByRole("link", { name: t.appNav.apiKeys }).click();
    await h1(page, t.apiKeys.title).waitFor();
    await page.getByText(t.apiKeys.revokeNote(1)).waitFor();
    await page.getByLabel(t.apiKeys.name).fill("backend");
    await page.getByRole("button", { name: t.apiKeys.create }).click();
    await page.getByText(t.apiKeys.newKey("backend")).waitFor();
    apiKey = (await page.getByTestId("secrets-once").locator("code").textContent())!;
    expect(apiKey).toMatch(/^sk_live_/);
    await expectPortalAccessible(page, "api-key-created");
    await page.getByRole("button", { name: t.common.dismiss }).click();
    // Only the prefix stays on the page.
    expect(await page.content()).not.toContain(apiKey);
    await page.getByText(`${apiKey.slice(0, 12)}…`).waitFor();

    const workflow = await api("POST", "/api/v2/workflows", {
      base: server.url,
      headers: { "X-API-Key": apiKey },
      json: { name: "KYC", features: ["id_verification", "liveness", "face_match"] },
    });
    expect(workflow.status).toBe(201);

    await page.getByRole("button", { name: t.apiKeys.revoke(`backend (${apiKey.slice(0, 12)}…)`) }).click();
    await page.getByRole("dialog", { name: t.apiKeys.revokeConfirm.heading(`backend (${apiKey.slice(0, 12)}…)`) }).getByRole("button", { name: t.apiKeys.revokeConfirm.button }).click();
    await page.getByText(t.apiKeys.revoked(apiKey.slice(0, 12))).waitFor();
    await expectPortalAccessible(page, "api-key-revoked");
    await expect
      .poll(async () => (await api("GET", "/api/v2/workflows", { base: server.url, headers: { "X-API-Key": apiKey } })).status, { timeout: 10_000 })
      .toBe(401);
  });

  it("round-trips the OIDC client settings: redirect URIs, scopes, a rotated secret", async () => {
    await page.getByRole("link", { name: t.appNav.oidc }).click();
    await h1(page, t.oidc.title).waitFor();
    await page.getByText(`${server.url}/.well-known/openid-configuration`).waitFor();
    await page.getByLabel(t.oidc.redirectNew).fill("http://shop.example/callback");
    await page.getByRole("button", { name: t.oidc.add }).click();
    await page.getByText("Redirect URI must use https (http only for localhost)").waitFor();
    await page.getByLabel(t.oidc.redirectNew).fill("https://shop.example/callback");
    await page.getByRole("button", { name: t.oidc.add }).click();
    await page.getByRole("button", { name: t.oidc.remove("https://shop.example/callback") }).waitFor();
    await page.getByLabel(t.oidc.scopes.profile).check();
    await page.getByLabel(t.oidc.scopes.verifications).check();
    await page.getByRole("button", { name: t.oidc.saveScopes }).click();
    await page.getByText(t.oidc.scopesSaved).waitFor();
    await page.getByRole("button", { name: t.oidc.rotate }).click();
    await page.getByRole("dialog", { name: t.oidc.rotateConfirm.heading }).getByRole("button", { name: t.oidc.rotateConfirm.button }).click();
    await page.getByText(t.oidc.newSecret).waitFor();
    const secret = (await page.getByTestId("secrets-once").locator("code").textContent())!;
    expect(secret).toMatch(/^cs_live_/);
    await expectPortalAccessible(page, "oidc-client");

    await page.reload();
    await h1(page, t.oidc.title).waitFor();
    expect(await page.getByLabel(t.oidc.scopes.profile).isChecked()).toBe(true);
    expect(await page.getByLabel(t.oidc.scopes.verifications).isChecked()).toBe(true);
    expect(await page.getByLabel(t.oidc.scopes.zkp).isChecked()).toBe(false);
    expect(await page.getByLabel(t.oidc.scopes.openid).isChecked()).toBe(true);
    await page.getByText("https://shop.example/callback", { exact: true }).waitFor();
    const clientId = (await page.locator("dd code").first().textContent())!;
    const members = await api("GET", "/api/sdk/members", { base: server.url, headers: { "X-Client-Id": clientId, "X-Client-Secret": secret } });
    expect(members.status).toBe(200);

    await page.getByRole("button", { name: t.oidc.remove("https://shop.example/callback") }).click();
    await page.getByRole("dialog", { name: t.oidc.removeConfirm.heading("https://shop.example/callback") }).getByRole("button", { name: t.oidc.removeConfirm.button }).click();
    await page.getByText(t.oidc.redirectEmpty).waitFor();
  });

  it("shows another organization's app pages as 404, on every app page", async () => {
    const other = await signUpDeveloper(server.url, undefined, smtp);
    const otherContext = await signedInContext(browser, other, server.url);
    const otherPage = await otherContext.newPage();
    for (const suffix of ["", "/keys", "/oidc"]) {
      const res = await otherPage.goto(`/dashboard/apps/${appId}${suffix}`);
      expect(res?.status(), suffix).toBe(404);
      await h1(otherPage, t.notFound.title).waitFor();
      expect(await otherPage.content()).not.toContain("Shop EU");
    }
    await expectPortalAccessible(otherPage, "not-found");
    await otherContext.close();
  });

  it("signs out, then limits sign-in attempts with one message for every account", async () => {
    await page.getByRole("button", { name: t.shell.signOut }).click();
    await page.waitForURL("**/sign-in?signedOut=1");
    await page.getByText(t.signIn.signedOut).waitFor();
    await expectPortalAccessible(page, "sign-in");
    expect((await page.goto("/dashboard/apps"))?.url()).toContain("/sign-in?callbackUrl=");

    // Successful sign-ins do not count; 3 failed ones per account and IP are allowed per 15 minutes.
    for (let i = 0; i < 3; i++) {
      await page.getByLabel(t.signIn.email).fill(email);
      await page.getByLabel(t.signIn.password).fill("wrong-password-1");
      await page.getByRole("button", { name: t.signIn.submit }).click();
      await page.getByText(t.signIn.invalid).waitFor();
      expect(await page.getByLabel(t.signIn.email).inputValue()).toBe(email);
    }
    await expectPortalAccessible(page, "sign-in-wrong-password");
    await page.getByLabel(t.signIn.password).fill(PASSWORD);
    await page.getByRole("button", { name: t.signIn.submit }).click();
    await page.getByText(t.signIn.rateLimited).waitFor();
    await expectPortalAccessible(page, "sign-in-limited");
    expect(page.url()).toContain("/sign-in");
  });

  it("resets a password through the emailed link, then signs in with the new one", async () => {
    const developer = await signUpDeveloper(server.url, undefined, smtp);
    await page.goto("/sign-in");
    await page.getByRole("link", { name: t.signIn.forgotLink }).click();
    await h1(page, t.passwordReset.forgotTitle).waitFor();
    await page.getByLabel(t.passwordReset.email).fill(developer.email);
    await page.getByRole("button", { name: t.passwordReset.send }).click();
    await page.getByText(t.passwordReset.sent(30)).waitFor();
    await expectPortalAccessible(page, "forgot-password");

    const raw = (await smtp.next(developer.email)).raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
    const link = raw.match(/https?:\/\/\S+\/reset-password#token=[A-Za-z0-9_%-]+/)![0];
    expect(link.startsWith(`${server.url}/reset-password#token=pwr_`)).toBe(true);
    await page.goto(link);
    await h1(page, t.passwordReset.resetTitle).waitFor();
    await expect.poll(() => page.url()).not.toContain("token=");
    await expectPortalAccessible(page, "reset-password");
    await page.getByLabel(t.passwordReset.newPassword).fill("a-brand-new-password");
    await page.getByRole("button", { name: t.passwordReset.save }).click();
    await page.waitForURL("**/sign-in?reset=1");
    await page.getByText(t.signIn.passwordChanged).waitFor();

    await page.getByLabel(t.signIn.email).fill(developer.email);
    await page.getByLabel(t.signIn.password).fill("a-brand-new-password");
    await page.getByRole("button", { name: t.signIn.submit }).click();
    await page.waitForURL("**/dashboard/apps");
    await h1(page, t.apps.title).waitFor();

    // The link works once.
    await page.goto(link);
    await page.getByLabel(t.passwordReset.newPassword).fill("yet-another-password");
    await page.getByRole("button", { name: t.passwordReset.save }).click();
    await page.getByText(t.passwordReset.invalidLink).waitFor();
    await expectPortalAccessible(page, "reset-password-used");
  });
});
