import fs from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { portalText } from "@/lib/i18n/portal-en";
import { verifyText } from "../support/verify-text";
import { shared } from "../support/api";
import { signUpDeveloper, type PortalDeveloper } from "../support/portal";
import { ARTIFACTS, chromiumMissing, expectPortalAccessible, launchChromium, signedInContext } from "./browser";

/**
 * The workflow builder of the developer portal in Debian's Chromium, as a
 * developer uses it on a live app: the list, a new workflow built by
 * clicking (age ticks and locks id_verification at once, with why; the
 * licence check, which a registry serves, is offered; an out-of-range threshold is
 * refused next to its field with what was typed kept), saved, edited,
 * deactivated and activated, a test session whose hosted page opens in a
 * new tab, and another workflow deleted after the confirmation that says
 * what deleting does; another organization's workflow pages are 404. Each view is axe-checked and screenshotted at phone and
 * desktop size (test-artifacts/screenshots/portal/). The developer signs up
 * over HTTP (the sign-up pages are portal.test.ts's) and the browser gets
 * their session cookie.
 */
const t = portalText;
const w = t.workflows;

let dev: PortalDeveloper;
let appId = "";
let browser: Browser;
let context: BrowserContext;
let page: Page;
let workflowId = "";

/** Each `it` axe-checks several views at two sizes: seconds each on a busy machine. */
const LONG = 180_000;

const suiteName = chromiumMissing ? `portal workflows (SKIPPED: ${chromiumMissing})` : "portal workflows in Chromium";

const h1 = (name: string | RegExp) => page.getByRole("heading", { level: 1, name });
const setting = (key: string) => page.getByLabel(w.settings[key]!.label, { exact: true });

describe.skipIf(chromiumMissing !== null)(suiteName, () => {
  beforeAll(async () => {
    fs.mkdirSync(path.join(ARTIFACTS, "screenshots", "portal"), { recursive: true });
    const base = shared().url;
    [dev, browser] = await Promise.all([signUpDeveloper(), launchChromium("none")]);
    const app = await dev.call("POST", "/api/portal/apps", { json: { name: "Shop", environment: "production" } });
    appId = app.body.data.app_id;
    const old = await dev.call("POST", `/api/portal/apps/${appId}/workflows`, { json: { name: "Old flow", features: ["liveness"] } });
    expect(old.status).toBe(201);
    context = await signedInContext(browser, dev, base);
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("builds a workflow by clicking: age brings id_verification, a threshold out of bounds is refused next to its field", async () => {
    await page.goto(`/dashboard/apps/${appId}`);
    await page.getByRole("link", { name: t.appNav.workflows }).click();
    await h1(w.title).waitFor();
    await page.getByRole("link", { name: "Old flow" }).waitFor();
    await expectPortalAccessible(page, "workflows-list");

    await page.getByRole("link", { name: w.newWorkflow }).click();
    await h1(w.newTitle).waitFor();
    // Before any choice: only the session's settings, with their default and bounds.
    await page.getByText(`${w.defaultIs("86400")} ${w.range("300", "604800")} ${w.wholeNumber}`).waitFor();
    expect(await page.getByTestId("settings-age").count()).toBe(0);
    // The licence check runs here (the NPPES registry is configured by default): offered like the others.
    expect(await page.locator("#feature-credential").isDisabled()).toBe(false);
    await expectPortalAccessible(page, "workflow-new");

    await page.getByLabel(w.name, { exact: true }).fill("Adult KYC");
    const idVerification = page.locator("#feature-id_verification");
    expect(await idVerification.isChecked()).toBe(false);
    await page.locator("#feature-age").check();
    // At once, without a round trip: id_verification ticked, locked, and why.
    expect(await idVerification.isChecked()).toBe(true);
    expect(await idVerification.isDisabled()).toBe(true);
    await page.getByText(w.requiredBy(w.features.id_verification, w.features.age)).waitFor();
    await page.getByRole("status").filter({ hasText: w.requiredAdded(w.features.id_verification, w.features.age) }).waitFor();
    await page.getByTestId("settings-id_verification").waitFor();
    await page.getByTestId("settings-age").waitFor();
    expect(await setting("age.minimum_age").inputValue()).toBe("18");

    await page.locator("#feature-face_match").check();
    const threshold = setting("face_match.threshold");
    expect(await threshold.inputValue()).toBe("0.61");
    await page.getByText(`${w.defaultIs("0.61")} ${w.range("0", "1")}`).first().waitFor();
    await threshold.fill("1.5");
    await setting("age.minimum_age").fill("21");
    await page.getByRole("button", { name: w.create }).click();
    await page.getByText(w.fixFields).waitFor();
    // The server's message next to the field, the field marked and focused, what was typed kept.
    expect(await threshold.getAttribute("aria-invalid")).toBe("true");
    const errorId = (await threshold.getAttribute("aria-describedby"))!.split(" ").find((id) => id.endsWith("-error"))!;
    expect(await page.locator(`[id="${errorId}"]`).textContent()).toMatch(/1/);
    await expect.poll(() => threshold.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await threshold.inputValue()).toBe("1.5");
    expect(await setting("age.minimum_age").inputValue()).toBe("21");
    expect(await page.getByLabel(w.name, { exact: true }).inputValue()).toBe("Adult KYC");
    await expectPortalAccessible(page, "workflow-field-error");

    await threshold.fill("0.7");
    await page.getByRole("button", { name: w.create }).click();
    await page.waitForURL(/\/workflows\/[0-9a-f-]{36}$/);
    workflowId = page.url().split("/").pop()!;
    await h1(w.editTitle("Adult KYC")).waitFor();
    const saved = await dev.call("GET", `/api/portal/apps/${appId}/workflows/${workflowId}`);
    expect(saved.body.data.workflow).toMatchObject({
      name: "Adult KYC",
      features: ["id_verification", "face_match", "age"],
      is_active: true,
      settings: { face_match: { threshold: 0.7, review_margin: 0.08 }, age: { minimum_age: 21 } },
    });
    // The stored values come back into the builder.
    expect(await setting("face_match.threshold").inputValue()).toBe("0.7");
    expect(await page.locator("#feature-id_verification").isDisabled()).toBe(true);
    await expectPortalAccessible(page, "workflow-edit");

    await setting("age.minimum_age").fill("25");
    await page.getByRole("button", { name: w.save }).click();
    await page.getByText(w.saved).waitFor();
    expect((await dev.call("GET", `/api/portal/apps/${appId}/workflows/${workflowId}`)).body.data.workflow.settings.age.minimum_age).toBe(25);
  }, LONG);

  it("deactivates and activates it, and opens a test session's hosted page in a new tab", async () => {
    await page.getByText(w.testLiveWarning).waitFor();
    const createTest = page.getByRole("button", { name: w.createTest });
    const toggle = page.getByRole("switch", { name: w.statusLabel });
    expect(await toggle.isChecked()).toBe(true);
    await toggle.click();
    await page.getByText(w.deactivated).waitFor();
    await page.getByText(w.inactiveText).waitFor();
    await expect.poll(() => createTest.isDisabled()).toBe(true);
    await page.getByText(w.testInactive).waitFor();
    expect((await dev.call("GET", `/api/portal/apps/${appId}/workflows/${workflowId}`)).body.data.workflow.is_active).toBe(false);

    await toggle.click();
    await page.getByText(w.activated).waitFor();
    await expect.poll(() => createTest.isDisabled()).toBe(false);
    await createTest.click();
    const open = page.getByRole("link", { name: new RegExp(w.openHosted) });
    await open.waitFor();
    expect(await open.getAttribute("target")).toBe("_blank");
    expect(await open.getAttribute("rel")).toBe("noopener");
    await expectPortalAccessible(page, "workflow-test-session");
    // The link carries the session token in the fragment; the hosted page takes it out of the address bar once read.
    expect(await open.getAttribute("href")).toMatch(new RegExp(`/verify/[0-9a-f-]{36}#token=st_`));
    const [hosted] = await Promise.all([context.waitForEvent("page"), open.click()]);
    await hosted.waitForLoadState();
    expect(hosted.url()).toMatch(new RegExp(`/verify/[0-9a-f-]{36}(#token=st_|$)`));
    await hosted.getByRole("heading", { level: 1, name: verifyText("start.heading", { app: "Shop" }) }).waitFor();
    // The portal's tab stays where it was.
    expect(page.url()).toContain(`/workflows/${workflowId}`);
    await hosted.close();
  }, LONG);

  it("deletes another workflow after a confirmation that says what deleting does", async () => {
    await page.getByRole("link", { name: w.backToList }).click();
    await h1(w.title).waitFor();
    await page.getByRole("link", { name: "Adult KYC" }).waitFor();
    await page.getByRole("link", { name: "Old flow" }).click();
    await h1(w.editTitle("Old flow")).waitFor();
    await page.getByRole("button", { name: w.delete }).click();
    for (const line of w.deleteConsequences) await page.getByText(line).waitFor();
    await expectPortalAccessible(page, "workflow-delete-confirm");
    await page.getByRole("button", { name: w.deleteConfirm("Old flow") }).click();
    await page.getByText(w.deleted("Old flow")).waitFor();
    await h1(w.title).waitFor();
    await expect.poll(() => page.getByRole("link", { name: "Old flow" }).count()).toBe(0);
    await page.getByRole("link", { name: "Adult KYC" }).waitFor();
    const list = await dev.call("GET", `/api/portal/apps/${appId}/workflows`);
    expect(list.body.data.workflows.map((x: { name: string }) => x.name)).toEqual(["Adult KYC"]);
    await expectPortalAccessible(page, "workflows-after-delete");

    // Another organization's workflow pages are the 404 page.
    const other = await signUpDeveloper();
    const otherApp = (await other.call("POST", "/api/portal/apps", { json: { name: "Theirs", environment: "test" } })).body.data.app_id;
    const theirs = (await other.call("POST", `/api/portal/apps/${otherApp}/workflows`, { json: { name: "Secret flow", features: ["liveness"] } })).body.data.workflow;
    for (const path of [`/dashboard/apps/${otherApp}/workflows`, `/dashboard/apps/${otherApp}/workflows/${theirs.id}`, `/dashboard/apps/${appId}/workflows/${theirs.id}`]) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(404);
      await h1(t.notFound.title).waitFor();
      expect(await page.getByText("Secret flow").count()).toBe(0);
    }
  }, LONG);
});
