import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { portalText } from "@/lib/i18n/portal-en";
import { api, shared } from "../support/api";
import { signUpDeveloper, type PortalDeveloper } from "../support/portal";
import { ARTIFACTS, chromiumMissing, expectPortalAccessible, launchChromium, signedInContext } from "./browser";

/**
 * Destructive actions behind a confirmation, and rolling with an overlap
 * window, in Debian's Chromium against the shared production server, on a
 * production app: the API keys page (revoke and roll ask first, Cancel
 * changes nothing; a roll with "In 1 hour" shows the new key once, the old
 * row says when it expires and both keys work) and the OIDC client page
 * (rotating asks and says until when the old secret works; removing a
 * redirect URI asks; Cancel keeps it). Axe-clean, with screenshots.
 */
const t = portalText;
const k = t.apiKeys;
const o = t.oidc;

let browser: Browser;
let page: Page;
let dev: PortalDeveloper;
let app: { app_id: string; api_key: string; client_id: string; client_secret: string };

const suiteName = chromiumMissing ? `portal rolling (SKIPPED: ${chromiumMissing})` : "portal confirmations and rolling in Chromium";
const works = async (key: string) => (await api("GET", "/api/v2/webhooks", { headers: { "X-API-Key": key } })).status;

describe.skipIf(chromiumMissing !== null)(suiteName, () => {
  beforeAll(async () => {
    fs.mkdirSync(path.join(ARTIFACTS, "screenshots", "portal"), { recursive: true });
    [dev, browser] = await Promise.all([signUpDeveloper(), launchChromium("none")]);
    const created = await dev.call("POST", "/api/portal/apps", { json: { name: "Roll shop", environment: "production" } });
    app = created.body.data;
    page = await (await signedInContext(browser, dev, shared().url)).newPage();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("asks before revoking or rolling a key (Cancel changes nothing); a roll shows the new key once and when the old one expires", async () => {
    await page.goto(`/dashboard/apps/${app.app_id}/keys`);
    await page.getByRole("heading", { level: 1, name: k.title }).waitFor();
    const name = `default (${app.api_key.slice(0, 12)}…)`;

    // Revoke: asks, says what happens; Cancel leaves the key working.
    await page.getByRole("button", { name: k.revoke(name) }).click();
    const revoke = page.getByRole("dialog", { name: k.revokeConfirm.heading(name) });
    await revoke.getByText(/^Requests with this key fail at once/).waitFor();
    await expectPortalAccessible(page, "api-key-revoke-confirm");
    await revoke.getByRole("button", { name: t.common.cancel }).click();
    await revoke.waitFor({ state: "detached" });
    expect(await works(app.api_key)).toBe(200);

    // Roll: asks with the choice of when the old key stops (24 hours by default); Cancel makes no key.
    await page.getByRole("button", { name: k.roll(name) }).click();
    const roll = page.getByRole("dialog", { name: k.rollConfirm.heading(name) });
    const choice = roll.getByLabel(t.roll.windowLabel);
    expect(await choice.inputValue()).toBe("86400");
    await roll.getByText(k.rollConfirm.consequences("for 24 hours")[1]!).waitFor();
    await roll.getByRole("button", { name: t.common.cancel }).click();
    await roll.waitFor({ state: "detached" });
    expect((await dev.call("GET", `/api/portal/apps/${app.app_id}/keys`)).body.data.keys).toHaveLength(1);

    // Confirm with "In 1 hour": the new key once, the old row says it expires, both work.
    await page.getByRole("button", { name: k.roll(name) }).click();
    await choice.selectOption("3600");
    await roll.getByText(k.rollConfirm.consequences("for 1 hour")[1]!).waitFor();
    await expectPortalAccessible(page, "api-key-roll-confirm");
    await roll.getByRole("button", { name: k.rollConfirm.button }).click();
    const shown = page.getByTestId("secrets-once");
    await page.getByText(/^New API key “default” \(the old key sk_live_.{4}… expires in (59|60) minutes\)$/).waitFor();
    const newKey = (await shown.locator("code").textContent())!;
    expect(newKey).toMatch(/^sk_live_/);
    await page.getByText(/^Rolled: expires in (59|60) minutes$/).waitFor();
    await expectPortalAccessible(page, "api-key-rolled");
    expect(await works(app.api_key)).toBe(200);
    expect(await works(newKey)).toBe(200);
    // A rolled key offers Revoke, not Roll again.
    expect(await page.getByRole("button", { name: k.roll(name) }).count()).toBe(0);

    // Confirm a revoke: the old key fails at once.
    await page.getByRole("button", { name: t.common.dismiss }).click();
    await page.getByRole("button", { name: k.revoke(name) }).click();
    await revoke.getByRole("button", { name: k.revokeConfirm.button }).click();
    await page.getByText(k.revoked(app.api_key.slice(0, 12))).waitFor();
    expect(await works(app.api_key)).toBe(401);
    expect(await works(newKey)).toBe(200);
  });

  it("asks before rotating the client secret and says until when the old one works; asks before removing a redirect URI", async () => {
    await page.goto(`/dashboard/apps/${app.app_id}/oidc`);
    await page.getByRole("heading", { level: 1, name: o.title }).waitFor();
    const token = async (secret: string) =>
      (
        await fetch(`${shared().url}/api/auth/oidc/token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: "rt_unknown", client_id: app.client_id, client_secret: secret }).toString(),
        })
      ).status;

    await page.getByRole("button", { name: o.rotate }).click();
    const rotate = page.getByRole("dialog", { name: o.rotateConfirm.heading });
    await rotate.getByText(o.rotateConfirm.consequences("for 24 hours")[1]!).waitFor();
    await rotate.getByRole("button", { name: t.common.cancel }).click();
    await rotate.waitFor({ state: "detached" });
    expect(await page.getByTestId("secrets-once").count()).toBe(0);
    expect(await token(app.client_secret)).toBe(400); // invalid_grant: the client authenticated

    await page.getByRole("button", { name: o.rotate }).click();
    await rotate.getByLabel(t.roll.windowLabel).selectOption("259200");
    await rotate.getByText(o.rotateConfirm.consequences("for 3 days")[1]!).waitFor();
    await expectPortalAccessible(page, "oidc-rotate-confirm");
    await rotate.getByRole("button", { name: o.rotateConfirm.button }).click();
    await page.getByText(o.newSecret).waitFor();
    const secret = (await page.getByTestId("secrets-once").locator("code").textContent())!;
    await page.getByText(/^The previous secret still works; it expires in (2|3) days\.$/).waitFor();
    expect(await token(app.client_secret)).toBe(400);
    expect(await token(secret)).toBe(400);
    await page.getByRole("button", { name: t.common.dismiss }).click();

    // "Now": the previous secret stops at once.
    await page.getByRole("button", { name: o.rotate }).click();
    await rotate.getByLabel(t.roll.windowLabel).selectOption("0");
    await rotate.getByText(o.rotateConfirm.consequences(null)[1]!).waitFor();
    await rotate.getByRole("button", { name: o.rotateConfirm.button }).click();
    await page.getByText(o.newSecret).waitFor();
    const latest = (await page.getByTestId("secrets-once").locator("code").textContent())!;
    await page.getByRole("button", { name: t.common.dismiss }).click();
    // The settings are read again after the rotation: the line goes once they are.
    await page.getByText(/^The previous secret still works/).waitFor({ state: "detached" });
    expect(await token(secret)).toBe(401);
    expect(await token(latest)).toBe(400);

    // Removing a redirect URI asks; Cancel keeps it, Confirm removes it.
    const uri = "https://roll.example/callback";
    await page.getByLabel(o.redirectNew).fill(uri);
    await page.getByRole("button", { name: o.add }).click();
    await page.getByRole("button", { name: o.remove(uri) }).click();
    const remove = page.getByRole("dialog", { name: o.removeConfirm.heading(uri) });
    await remove.getByText(o.removeConfirm.consequences[0]!).waitFor();
    await expectPortalAccessible(page, "oidc-remove-uri-confirm");
    await remove.getByRole("button", { name: t.common.cancel }).click();
    await remove.waitFor({ state: "detached" });
    expect((await dev.call("GET", `/api/portal/apps/${app.app_id}/oidc`)).body.data.redirect_uris).toEqual([uri]);
    await page.getByRole("button", { name: o.remove(uri) }).click();
    await remove.getByRole("button", { name: o.removeConfirm.button }).click();
    await page.getByText(o.redirectEmpty).waitFor();
    expect((await dev.call("GET", `/api/portal/apps/${app.app_id}/oidc`)).body.data.redirect_uris).toEqual([]);
  });
});
