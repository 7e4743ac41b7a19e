import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession, createTenant, createWorkflow, type Tenant } from "../support/api";
import { useServerDatabase } from "../support/domain";
import { verifyTextIn } from "../support/verify-text";
import { captureView, chromiumMissing, launchChromium, PHONE } from "./browser";

/**
 * Issue 35: the hosted page speaks the person's language. A browser set to
 * French gets the page in French (`<html lang="fr">`); a session created
 * with `language: "ar"` is in Arabic, right to left, whatever the browser
 * says; the language switcher changes the language and keeps the session.
 */
useServerDatabase();

const PIXEL_UA = "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36";
let t: Tenant;
let workflowId: string;
let browser: Browser;

const suiteName = chromiumMissing ? `languages (SKIPPED: ${chromiumMissing})` : "the hosted page's language in Chromium";

describe.skipIf(Boolean(chromiumMissing))(suiteName, { timeout: 120_000 }, () => {
  beforeAll(async () => {
    browser = await launchChromium("none");
    t = await createTenant();
    workflowId = await createWorkflow(t, ["id_verification", "liveness", "face_match"]);
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** A phone (Chromium's mobile emulation), so the page offers its own steps rather than the hand-off to a phone. */
  async function open(url: string, locale: string) {
    const context = await browser.newContext({ viewport: PHONE, userAgent: PIXEL_UA, isMobile: true, hasTouch: true, locale, permissions: ["camera"] });
    const page = await context.newPage();
    await page.goto(url);
    return { page, context };
  }

  it("a browser set to French gets the page in French, from the server's first answer", async () => {
    const fr = await verifyTextIn("fr");
    const s = await createSession(t, { workflow_id: workflowId });
    const { page, context } = await open(s.url, "fr-FR");
    try {
      await page.getByRole("button", { name: fr("start.begin") }).waitFor();
      expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(["fr", "ltr"]);
      expect(await page.title()).toBe(fr("meta.title"));
      expect(await page.getByRole("combobox", { name: fr("shell.language") }).inputValue()).toBe("fr");
    } finally {
      await context.close();
    }
  });

  it("language: ar on the session: Arabic, right to left, for an English browser; no serious axe finding", async () => {
    const ar = await verifyTextIn("ar");
    const s = await createSession(t, { workflow_id: workflowId, language: "ar" });
    const { page, context } = await open(s.url, "en-US");
    try {
      await page.getByRole("button", { name: ar("start.begin") }).waitFor();
      expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(["ar", "rtl"]);
      // Mirrored: the page's start edge is on the right.
      const begin = await page.getByRole("button", { name: ar("start.begin") }).boundingBox();
      expect(begin!.x + begin!.width).toBeGreaterThan(PHONE.width / 2);
      expect(await captureView(page, "start-arabic")).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("the language switcher reloads the same session in the chosen language, ahead of the session's and the browser's, and the flow goes on", async () => {
    const [fr, de] = await Promise.all([verifyTextIn("fr"), verifyTextIn("de")]);
    const s = await createSession(t, { workflow_id: workflowId, language: "fr" });
    const { page, context } = await open(s.url, "es-ES");
    try {
      await page.getByRole("button", { name: fr("start.begin") }).click();
      await page.getByRole("heading", { level: 1, name: fr("document.heading") }).waitFor();
      await page.getByRole("combobox", { name: fr("shell.language") }).selectOption("de");
      await page.waitForURL(/[?&]lang=de/);
      // The same session, in German: the link moved to this tab's storage, and the flow carries on from the server's progress.
      await page.getByRole("button", { name: new RegExp(`^(${de("start.resume")}|${de("start.begin")})$`) }).click();
      await page.getByRole("heading", { level: 1, name: de("document.heading") }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe("de");
      expect(page.url()).toContain(`/verify/${s.session_id}`);
    } finally {
      await context.close();
    }
  });
});
