import * as client from "openid-client";
import type { Response as PageResponse } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, shared, type Tenant } from "../support/api";
import { cli } from "../support/cli";
import { useServerDatabase } from "../support/domain";
import { authorize, bearer, exchange, provider, randomIp, readCode, useOidcProvider } from "../support/oidc-flow";
import { chromiumMissing, launchChromium } from "./browser";

/**
 * The account page in Chromium (docs/hosted-flow.md "The person's account page"): a
 * person who signed in to a production app through OIDC signs in to
 * /account twice (no consent screen either time: it is the service's own
 * page), sees the app with what it may read, and revoking it asks for
 * confirmation first (Cancel keeps it; Revoke ends its tokens at once).
 */
useServerDatabase();
useOidcProvider();

const REDIRECT = "https://rp.example/callback";
const suiteName = chromiumMissing ? `account page apps (SKIPPED: ${chromiumMissing})` : "account page apps in Chromium";

describe.skipIf(chromiumMissing !== null)(suiteName, () => {
  let t: Tenant;
  let config: client.Configuration;

  beforeAll(async () => {
    t = await createTenant(shared().env, "production");
    await cli(["app:redirect-uri", "--app", t.appId, "--uri", REDIRECT], shared().env);
    await cli(["app:scopes", "--app", t.appId, "--scopes", "openid profile verifications zkp"], shared().env);
    config = await client.discovery(new URL(provider().op.url), t.clientId, t.clientSecret, undefined, { execute: [client.allowInsecureRequests] });
  });

  it("signs in to /account twice without a consent screen, lists the app with its scopes, and asks before revoking it", async () => {
    const flow = await authorize({ cfg: config, redirectUri: REDIRECT, scope: "openid profile verifications zkp" });
    const tokens = await exchange(flow, config);
    const userinfo = async () => (await bearer("/api/auth/oidc/userinfo", tokens.access_token)).status;
    expect(await userinfo()).toBe(200);

    const browser = await launchChromium("none");
    try {
      const context = await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": randomIp() }, locale: "en-GB" });
      const page = await context.newPage();
      // Every sign-in page the browser is shown: none may be the consent step.
      const signInPages: Promise<string>[] = [];
      page.on("response", (res: PageResponse) => {
        if (res.request().resourceType() === "document" && new URL(res.url()).pathname.startsWith("/oidc/interaction/") && res.status() === 200) signInPages.push(res.text());
      });

      await page.goto(`${provider().op.url}/account`);
      await page.getByRole("link", { name: "Sign in" }).click();
      await page.getByText("to continue to Your account").waitFor();
      await page.getByLabel("Email address").fill(flow.email);
      await page.getByRole("button", { name: "Send code" }).click();
      await page.getByLabel("6-digit code").fill(await readCode(flow.email));
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByText(`Signed in as ${flow.email}.`).waitFor();
      expect(new URL(page.url()).pathname).toBe("/account");

      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByText("You are signed out.").waitFor();
      // The second sign-in reuses the browser's sign-in: no page at all, and no consent.
      await page.getByRole("link", { name: "Sign in" }).click();
      await page.getByText(`Signed in as ${flow.email}.`).waitFor();
      const shown = await Promise.all(signInPages);
      expect(shown.length).toBeGreaterThan(0);
      for (const html of shown) expect(html).not.toContain('value="allow"');

      const list = page.getByTestId("signed-in-apps");
      await list.getByText("Test app").waitFor();
      const listed = await list.textContent();
      expect(listed).toContain("Your account id (to recognise you)");
      expect(listed).toContain("Whether you passed identity and liveness checks");
      expect(listed).toContain("Proofs about you (such as being over 18)");

      const revoke = page.getByRole("button", { name: "Revoke sign-in for Test app" });
      await revoke.click();
      const dialog = page.getByRole("dialog", { name: "Revoke Test app's sign-in?" });
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain("The app can no longer read any of the details listed");
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });
      expect(await userinfo()).toBe(200);

      await revoke.click();
      await dialog.getByRole("button", { name: "Revoke", exact: true }).click();
      await page.getByText("Sign-in revoked. That app can no longer read anything about you.").waitFor();
      await page.getByText("You are not signed in to any app with this account.").waitFor();
      expect(await userinfo()).toBe(401);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
