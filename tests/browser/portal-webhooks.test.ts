import fs from "node:fs";
import path from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { portalText } from "@/lib/i18n/portal-en";
import { shared } from "../support/api";
import { signUpDeveloper } from "../support/portal";
import { TestReceiver } from "../support/receiver";
import { ARTIFACTS, chromiumMissing, expectPortalAccessible, launchChromium, signedInContext } from "./browser";

/**
 * An app's webhooks page in Debian's Chromium, against the shared server
 * (its worker retries every second) and a real local receiver: a refused
 * URL explained next to the field (what was typed kept), register (the
 * signing secret shown once), approve, rotate the secret after a
 * confirmation (Cancel changes nothing; shown once; the old one signs too
 * for the chosen overlap, shown on the row; the receiver then verifies with
 * the new one), one click per simulated event kind, each
 * in the delivery log with its attempts (the log refreshes by itself while
 * a delivery is pending), the state filter, resend and its new attempt;
 * disable / enable (a test event held meanwhile) and delete after a
 * confirmation (the held delivery cancelled, the log kept).
 * Screenshots at phone and desktop size (test-artifacts/screenshots/portal/),
 * axe-clean.
 */
const t = portalText;
const w = t.webhooks;
const receiver = new TestReceiver();

let browser: Browser;
let page: Page;
let appId = "";

const suiteName = chromiumMissing ? `portal webhooks (SKIPPED: ${chromiumMissing})` : "portal webhooks in Chromium";

/** The delivery log's body rows. */
function logRows(view: Page): Locator {
  return view.getByRole("region", { name: t.common.table(w.logHeading) }).locator("tbody tr");
}

/** The secret shown once, read from the page as a developer would copy it. */
async function shownSecret(view: Page): Promise<string> {
  const box = view.getByTestId("secrets-once");
  await box.waitFor();
  return (await box.locator("code").textContent())!;
}

describe.skipIf(chromiumMissing !== null)(suiteName, () => {
  beforeAll(async () => {
    fs.mkdirSync(path.join(ARTIFACTS, "screenshots", "portal"), { recursive: true });
    const [developer] = await Promise.all([signUpDeveloper(), receiver.start()]);
    const created = await developer.call("POST", "/api/portal/apps", { json: { name: "Hook shop", environment: "test" } });
    appId = created.body.data.app_id;
    browser = await launchChromium("none");
    const context = await signedInContext(browser, developer, shared().url);
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await receiver.stop();
  });

  it("registers a webhook (a refused URL explained next to the field), approves it and rotates its secret, each secret shown once", async () => {
    await page.goto(`/dashboard/apps/${appId}`);
    await page.getByRole("link", { name: t.appNav.webhooks }).click();
    await page.getByRole("heading", { level: 1, name: w.title }).waitFor();
    await page.getByText(w.empty).waitFor();
    await page.getByText(w.logEmpty).waitFor();

    const url = page.getByLabel(w.url);
    await url.fill("http://shop.example/hook");
    await page.getByRole("button", { name: w.register }).click();
    await page.getByText("Webhook URL must use https (http only for localhost in test apps)").waitFor();
    expect(await url.getAttribute("aria-invalid")).toBe("true");
    expect(await url.inputValue()).toBe("http://shop.example/hook");
    await expectPortalAccessible(page, "webhooks-refused-url");

    await url.fill(receiver.url);
    await page.getByRole("button", { name: w.register }).click();
    await page.getByRole("heading", { name: w.newSecret(receiver.url) }).waitFor();
    receiver.secret = await shownSecret(page);
    expect(receiver.secret).toMatch(/^whsec_/);
    expect(await page.getByTestId("secrets-once").textContent()).toContain(w.secretShownOnce);
    await page.getByText(w.awaitingApproval).waitFor();
    await page.getByRole("button", { name: t.common.dismiss }).click();
    expect(await page.getByText(receiver.secret).count()).toBe(0);

    await page.getByRole("button", { name: w.approveLabel(receiver.url) }).click();
    await page.getByText(w.approvedNote(receiver.url)).waitFor();
    await page.getByRole("cell", { name: w.approved, exact: true }).waitFor();
    expect(await page.getByRole("button", { name: w.approveLabel(receiver.url) }).count()).toBe(0);

    // Rotating asks first; Cancel changes nothing.
    await page.getByRole("button", { name: w.rotateLabel(receiver.url) }).click();
    const rotateDialog = page.getByRole("dialog", { name: w.rotateConfirm.heading(receiver.url) });
    await rotateDialog.getByText(w.rotateConfirm.consequences("for 24 hours")[1]!).waitFor();
    await rotateDialog.getByRole("button", { name: t.common.cancel }).click();
    await rotateDialog.waitFor({ state: "detached" });
    expect(await page.getByTestId("secrets-once").count()).toBe(0);
    // Confirm, with the default overlap (24 hours): the new secret shown once; the row says when the old one stops signing.
    await page.getByRole("button", { name: w.rotateLabel(receiver.url) }).click();
    expect(await rotateDialog.getByLabel(t.roll.windowLabel).inputValue()).toBe("86400");
    await rotateDialog.getByRole("button", { name: w.rotateConfirm.button }).click();
    await page.getByRole("heading", { name: w.rotatedSecret(receiver.url) }).waitFor();
    await page.getByText(/^Old secret still signs; stops in 2[34] hours$/).waitFor();
    const rotated = await shownSecret(page);
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(receiver.secret);
    receiver.secret = rotated;
    await expectPortalAccessible(page, "webhooks-secret-rotated");
    await page.getByRole("button", { name: t.common.dismiss }).click();
    await page.reload();
    await page.getByRole("heading", { level: 1, name: w.title }).waitFor();
    expect(await page.content()).not.toContain(rotated);
  });

  it("sends each simulated event with one click and shows each in the delivery log with its attempts", async () => {
    const kinds = ["approved", "declined", "in_review", "expired", "duplicate", "bad_signature"] as const;
    for (const kind of kinds) {
      await page.getByRole("button", { name: w.send(w.kinds[kind]) }).click();
      await page.getByText(new RegExp(`^${w.kinds[kind]} test event evt_test_`)).waitFor();
    }
    // Seven deliveries (the duplicate twice), all settled: the log refreshed by itself.
    await expect.poll(() => logRows(page).count(), { timeout: 20_000 }).toBe(7);
    await page.getByRole("cell", { name: w.states.pending }).first().waitFor({ state: "detached", timeout: 20_000 });
    await expect.poll(() => page.getByRole("cell", { name: w.states.succeeded, exact: true }).count()).toBe(6);

    for (const status of ["APPROVED", "DECLINED", "IN_REVIEW", "EXPIRED"]) {
      const type = status === "APPROVED" ? "verification.approved" : "verification.completed";
      expect(await logRows(page).filter({ hasText: `${type}, ${status}` }).count(), status).toBeGreaterThanOrEqual(1);
    }
    // Every delivery shows its attempt: outcome, HTTP status, latency (not the answer: the receiver is on loopback).
    const declined = logRows(page).filter({ hasText: "verification.completed, DECLINED" });
    await expect.poll(() => declined.getByTestId("delivery-attempt").first().textContent()).toMatch(
      /^Attempt 1: succeeded, HTTP 200, \d+ ms\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/,
    );
    const bad = logRows(page).filter({ hasText: w.kinds.bad_signature });
    expect(await bad.count()).toBe(1);
    // The bad-signature test reports what it shows about the receiver: it refused the forgery.
    expect(await bad.getByRole("cell").filter({ hasText: w.forgery.refused }).count()).toBe(1);
    expect(await bad.getByTestId("delivery-attempt").textContent()).toContain("Attempt 1: failed, HTTP 400");
    expect(await bad.getByTestId("delivery-attempt").textContent()).not.toContain("Response:"); // a loopback receiver's answer is not shown
    // The duplicate: two rows, one event id.
    const approvedRows = logRows(page).filter({ hasText: "verification.approved, APPROVED" }).filter({ hasNotText: w.kinds.bad_signature });
    expect(await approvedRows.count()).toBe(3);
    const dupEvent = receiver.received.find((r, i, all) => all.filter((x) => x.headers["x-svc-event-id"] === r.headers["x-svc-event-id"]).length === 2);
    expect(dupEvent).toBeDefined();
    expect(await logRows(page).filter({ hasText: String(dupEvent!.headers["x-svc-event-id"]) }).count()).toBe(2);
    // The receiver verified everything but the bad signature.
    expect(receiver.received.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 400]);
    await expectPortalAccessible(page, "webhooks-delivery-log");

    // The state filter asks the server for failed deliveries only.
    await page.getByLabel(w.filterState).selectOption("failed");
    await expect.poll(() => logRows(page).count()).toBe(1);
    expect(await logRows(page).first().textContent()).toContain(w.kinds.bad_signature);
    await page.getByLabel(w.filterState).selectOption("");
    await expect.poll(() => logRows(page).count()).toBe(7);
  });

  it("resends a delivery: a new row at the top with its own attempt", async () => {
    const declined = logRows(page).filter({ hasText: "verification.completed, DECLINED" });
    const eventId = (await declined.locator("code").first().textContent())!;
    await page.getByRole("button", { name: w.resendLabel(eventId) }).click();
    await page.getByText(w.resent(eventId)).waitFor();
    await expect.poll(() => logRows(page).count()).toBe(8);
    const top = logRows(page).first();
    expect(await top.locator("code").first().textContent()).toBe(eventId);
    await expect.poll(() => top.getByTestId("delivery-attempt").textContent(), { timeout: 20_000 }).toMatch(/^Attempt 1: succeeded, HTTP 200/);
    await receiver.waitFor((r) => r.received.filter((x) => x.headers["x-svc-event-id"] === eventId).length === 2);
    expect(receiver.received.filter((x) => x.headers["x-svc-event-id"] === eventId).map((x) => x.duplicate)).toEqual([false, true]);
  });

  it("disables and enables a webhook (its test event held meanwhile), and deletes it only after a confirmation, its held delivery cancelled", async () => {
    const endpoints = page.getByRole("region", { name: t.common.table(w.listHeading) });
    const row = endpoints.locator("tbody tr").filter({ hasText: receiver.url });
    /** Sends an approved test event with the page's button; its event id, read from the confirmation (a new one, not the previous send's). */
    let lastSent = "";
    const sendApproved = async () => {
      await page.getByRole("button", { name: w.send(w.kinds.approved) }).click();
      const sent = page.getByText(new RegExp(`^${w.kinds.approved} test event evt_test_\\w+ queued`));
      await expect.poll(async () => ((await sent.count()) ? (await sent.textContent())!.match(/evt_test_\w+/)![0] : lastSent)).not.toBe(lastSent);
      lastSent = (await sent.textContent())!.match(/evt_test_\w+/)![0];
      return lastSent;
    };
    const rowOf = (eventId: string) => logRows(page).filter({ hasText: eventId });

    await page.getByRole("button", { name: w.disableLabel(receiver.url) }).click();
    await page.getByText(w.disabledNote(receiver.url)).waitFor();
    await row.getByRole("cell", { name: w.disabled, exact: true }).waitFor();
    const held = await sendApproved();
    await rowOf(held).getByText(w.held).waitFor();
    expect(await rowOf(held).getByRole("cell", { name: w.states.pending, exact: true }).count()).toBe(1);
    expect(await rowOf(held).textContent()).toContain(w.noAttemptsYet);

    await page.getByRole("button", { name: w.enableLabel(receiver.url) }).click();
    await page.getByText(w.enabledNote(receiver.url)).waitFor();
    await row.getByRole("cell", { name: w.approved, exact: true }).waitFor();
    await expect.poll(() => rowOf(held).getByTestId("delivery-attempt").first().textContent(), { timeout: 20_000 }).toMatch(/^Attempt 1: succeeded, HTTP 200/);
    await receiver.waitFor((r) => r.processed.some((e) => e.event_id === held));

    // Disabled again, a second test event waits; deleting asks first, says it will be cancelled, and Cancel keeps the webhook.
    await page.getByRole("button", { name: w.disableLabel(receiver.url) }).click();
    await row.getByRole("cell", { name: w.disabled, exact: true }).waitFor();
    const doomed = await sendApproved();
    await rowOf(doomed).getByText(w.held).waitFor();
    const rowsBefore = await logRows(page).count();
    await page.getByRole("button", { name: w.deleteLabel(receiver.url) }).click();
    const dialog = page.getByRole("dialog", { name: w.deleteConfirm.heading(receiver.url) });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("Its pending deliveries are cancelled and never sent.");
    await expectPortalAccessible(page, "webhooks-delete-confirm");
    await dialog.getByRole("button", { name: t.common.cancel }).click();
    await dialog.waitFor({ state: "detached" });
    expect(await row.count()).toBe(1);

    await page.getByRole("button", { name: w.deleteLabel(receiver.url) }).click();
    await dialog.getByRole("button", { name: w.deleteConfirm.button }).click();
    await page.getByText(w.deletedNote(receiver.url, 1)).waitFor();
    await page.getByText(w.empty).waitFor();
    await rowOf(doomed).getByRole("cell", { name: w.states.cancelled, exact: true }).waitFor();
    // The log keeps every delivery; a deleted webhook's cannot be resent.
    expect(await logRows(page).count()).toBe(rowsBefore);
    expect(await page.getByRole("button", { name: w.resendLabel(doomed) }).count()).toBe(0);
    expect(receiver.received.some((r) => r.headers["x-svc-event-id"] === doomed)).toBe(false);
    await expectPortalAccessible(page, "webhooks-deleted");
  });
});
