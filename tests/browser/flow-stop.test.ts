import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyText } from "../support/verify-text";
import { api, createSession, createTenant, createWorkflow, keyHeader, type Tenant } from "../support/api";
import { useServerDatabase } from "../support/domain";
import { FIXTURES } from "../support/images";
import { captureView, chromiumMissing, launchChromium, PHONE } from "./browser";

/**
 * Issue 33 item 21 (docs/sessions.md "Decision engine"):
 * person B's licence (she is 19) on a workflow that asks for 21 ends the
 * flow at the document with a page that says why, instead of the selfie video.
 */
useServerDatabase();

const PIXEL_UA = "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36";
const RETURN_URL = "https://shop.example/return?order=7";
let t: Tenant;
let adultsOnly: string;
let browser: Browser;

const suiteName = chromiumMissing ? `stop page (SKIPPED: ${chromiumMissing})` : "stop page in Chromium";

describe.skipIf(Boolean(chromiumMissing))(suiteName, { timeout: 180_000 }, () => {
  beforeAll(async () => {
    browser = await launchChromium("none");
    t = await createTenant();
    adultsOnly = await createWorkflow(t, ["id_verification", "age", "liveness", "face_match"], {
      settings: { liveness: { actions: ["turn_left", "turn_right"], actions_per_challenge: 2 }, age: { minimum_age: 21 } },
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("an under-age document shows the stop page instead of the liveness step", async () => {
    const s = await createSession(t, { workflow_id: adultsOnly, redirect_url: RETURN_URL });
    // A phone (Chromium's mobile emulation) without a camera: the document is uploaded.
    const context = await browser.newContext({ viewport: PHONE, userAgent: PIXEL_UA, isMobile: true, hasTouch: true, locale: "en-GB", permissions: ["camera"] });
    const page = await context.newPage();
    try {
      await page.goto(s.url);
      await page.getByRole("button", { name: verifyText("start.begin") }).click();
      await page.getByRole("heading", { level: 1, name: verifyText("document.heading") }).waitFor();
      await page.getByLabel(verifyText("document.types.driving_licence")).check();
      await page.getByLabel(verifyText("document.uploadLabel", { side: "Front" })).setInputFiles(path.join(FIXTURES, "documents", "licence-b-front.jpg"));
      await page.getByLabel(verifyText("document.uploadLabel", { side: "Back" })).setInputFiles(path.join(FIXTURES, "documents", "licence-b-back.jpg"));
      await page.getByRole("button", { name: verifyText("document.submit") }).click();

      await page.getByRole("heading", { level: 1, name: verifyText("stopped.heading") }).waitFor({ timeout: 90_000 });
      await page.getByText(verifyText("stopped.reasons.under_minimum_age", { app: "Test app" })).waitFor();
      await page.getByText(verifyText("stopped.skipped")).waitFor();
      await page.getByText(verifyText("stopped.whatNext", { app: "Test app" })).waitFor();
      expect(await page.getByRole("heading", { name: verifyText("liveness.heading") }).count()).toBe(0);
      expect(await page.getByText(/under_minimum_age|DECLINED/).count()).toBe(0); // no internal codes
      const back = page.getByRole("link", { name: verifyText("stopped.returnTo", { app: "Test app" }) });
      expect(await back.getAttribute("href")).toBe(`${RETURN_URL}&status=declined&session_id=${s.session_id}`);
      const serious = await captureView(page, "stop-under-age");
      expect(serious).toEqual([]);

      // Reopened, the link shows the same page; the session is decided.
      await page.reload();
      await page.getByRole("heading", { level: 1, name: verifyText("stopped.heading") }).waitFor();
      const decision = await api("GET", `/api/v2/session/${s.session_id}/decision`, { headers: keyHeader(t) });
      expect(decision.body.data.status).toBe("DECLINED");
    } finally {
      await context.close();
    }
  });
});
