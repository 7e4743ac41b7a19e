import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shared } from "../support/api";
import { chromiumMissing, DESKTOP, launchChromium } from "./browser";

/**
 * The API reference (/docs) in Debian's Chromium: Scalar renders the served
 * OpenAPI document, with the quick start and the operations, and the page
 * loads nothing from another origin (the machines are offline; the script
 * is served by this server).
 */
const suiteName = chromiumMissing ? `API reference page (SKIPPED: ${chromiumMissing})` : "API reference page in Chromium";

describe.skipIf(chromiumMissing !== null)(suiteName, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium("none");
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("renders the quick start and the operations from /api/v2/openapi.json, all from this origin", async () => {
    const base = shared().url;
    const page = await browser.newPage({ viewport: DESKTOP });
    const foreign: string[] = [];
    const failed: string[] = [];
    page.on("request", (req) => {
      const url = new URL(req.url());
      if (url.protocol.startsWith("http") && url.origin !== new URL(base).origin) foreign.push(req.url());
    });
    page.on("requestfailed", (req) => failed.push(req.url()));
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const res = await page.goto(`${base}/docs`);
    expect(res?.status()).toBe(200);
    await page.getByRole("heading", { name: "Quick start" }).first().waitFor({ timeout: 30_000 });
    await expect(page.getByText("Create a session", { exact: false }).first().isVisible()).resolves.toBe(true);
    await expect(page.getByText("Identity verification service").first().isVisible()).resolves.toBe(true);
    expect(foreign).toEqual([]);
    expect(failed.filter((u) => u.startsWith(base))).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
