import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyText } from "../support/verify-text";
import { api, createSession, createTenant, createWorkflow, keyHeader, type Tenant } from "../support/api";
import { useServerDatabase } from "../support/domain";
import { writeStillCamera } from "../fixtures/camera/generate-camera";
import { chromiumMissing, launchChromium, PHONE } from "./browser";
import { personInFrontOfCamera, personLog, type PersonLight } from "./camera-person";

/**
 * The colour challenge in a real browser (README "Liveness: the colour
 * challenge"): Debian's Chromium against the shared production server. The
 * test person (./camera-person.ts) does what the instructions say; what
 * changes between the tests is the light on his face:
 *  - `screen`: the page's coloured screen lights his face (each camera
 *    picture tinted in linear light by the overlay's colour): he passes;
 *  - `recorded`: a recording of a live burst made under another challenge's
 *    colours, replayed in step with the page (an injected video): refused;
 *  - `steady`: a recording under the room's light only: never passes.
 * And the photosensitive alternative: no coloured light, the result goes to
 * review, never passed.
 */
useServerDatabase();

const LIVENESS = { actions: ["turn_left", "turn_right"], actions_per_challenge: 2, frames: 5, max_attempts: 2 };

let t: Tenant;
let workflow: string;
let browser: Browser;
let cameraDir: string;

type Issued = { actions: string[]; colours: string[]; attempts_left: number };

/** The liveness check as recorded, with the colour challenge's evidence. */
async function livenessRow(sessionId: string) {
  const { db } = await import("@/lib/db/client");
  const row = await (await db()).checkResult.findUnique({ where: { sessionId_type: { sessionId, type: "liveness" } } });
  const m = (row?.evidence as any)?.measurements;
  return { status: row?.status, error: row?.error as { code: string } | null, colour: m?.colour_challenge, detected: m?.actions_detected };
}

/** Opens the liveness step of a new session with the person in front of the camera. */
async function atLivenessStep(light: PersonLight) {
  const s = await createSession(t, { workflow_id: workflow });
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, locale: "en-GB", permissions: ["camera"] });
  const page = await context.newPage();
  await personInFrontOfCamera(page, { performs: "as_asked", light });
  await page.goto(s.url);
  await page.getByRole("button", { name: "Start verification" }).click();
  await page.getByRole("heading", { level: 1, name: "Selfie video" }).waitFor();
  return { s, context, page };
}

/** Starts the burst (the camera button or the alternative) and returns the challenge issued. */
async function start(page: Page, button: string): Promise<Issued> {
  const answer = page.waitForResponse((r) => r.url().endsWith("/api/v2/antispoof/challenge") && r.request().method() === "POST");
  await page.getByRole("button", { name: button }).click();
  const res = await answer;
  expect(res.status()).toBe(201);
  return (await res.json()).data as Issued;
}

/** Colours the page showed during the burst, in order (sampled from its overlay). */
async function watchOverlay(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __overlay: string[] }).__overlay = seen;
    new MutationObserver(() => {
      const colour = document.querySelector('[data-testid="colour-light"]')?.getAttribute("data-colour");
      if (colour && seen[seen.length - 1] !== colour) seen.push(colour);
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  return () => page.evaluate(() => (window as unknown as { __overlay: string[] }).__overlay);
}

const suiteName = chromiumMissing ? `colour challenge (SKIPPED: ${chromiumMissing})` : "colour challenge in Chromium";

describe.skipIf(Boolean(chromiumMissing))(suiteName, { timeout: 180_000 }, () => {
  beforeAll(async () => {
    // A camera device for the page to open (the test person then replaces its picture: ./camera-person.ts).
    cameraDir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-colour-camera-"));
    browser = await launchChromium(await writeStillCamera(path.join(cameraDir, "b-still.y4m")));
    t = await createTenant();
    workflow = await createWorkflow(t, ["liveness"], { settings: { liveness: LIVENESS } });
  });
  afterAll(async () => {
    await browser?.close();
    if (cameraDir) fs.rmSync(cameraDir, { recursive: true, force: true });
  });

  it("the page warns first, lights the screen with the challenge's colours in order, and a face lit by them passes", async () => {
    const { s, context, page } = await atLivenessStep("screen");
    try {
      await page.getByText(verifyText("liveness.colourLight.warningTitle")).waitFor();
      await page.getByRole("button", { name: verifyText("liveness.colourLight.alternative") }).waitFor();
      const overlay = await watchOverlay(page);
      const issued = await start(page, verifyText("liveness.start"));
      expect(issued.colours).toHaveLength(8);
      await page.getByText(verifyText("liveness.passed")).waitFor({ timeout: 60_000 });
      // One colour per frame (5), in the order the server drew them; the light is off afterwards.
      expect(await overlay()).toEqual(issued.colours.slice(0, 5));
      expect(await page.locator('[data-testid="colour-light"]').count()).toBe(0);
      const row = await livenessRow(s.session_id);
      expect(row.status, JSON.stringify(row)).toBe("passed");
      expect(row.colour).toMatchObject({ skipped: false, verdict: "follows" });
      expect(row.colour.correlation).toBeGreaterThanOrEqual(0.95);
    } finally {
      await context.close();
    }
  });

  it("an injected recording of a live burst, lit by another challenge's colours, is refused even though the head turns are right", async () => {
    const { s, context, page } = await atLivenessStep("recorded");
    try {
      const issued = await start(page, verifyText("liveness.start"));
      const refused = page.getByText(verifyText("liveness.failedHeading"), { exact: true }).or(page.getByText(verifyText("liveness.colourLight.unclear")));
      await refused.first().waitFor({ timeout: 60_000 });
      await expect(page.getByText(verifyText("liveness.passed")).count()).resolves.toBe(0);
      const row = await livenessRow(s.session_id);
      // The movements were right: only the light gave the recording away.
      expect(row.detected.every((a: { detected: boolean }) => a.detected), JSON.stringify({ row, log: await personLog(page) })).toBe(true);
      expect(row.status).not.toBe("passed");
      expect(row.colour.verdict).not.toBe("follows");
      // A strong colour change that does not follow the screen is a decline; a weak one a review.
      if (row.colour.verdict === "contradicts") expect(row).toMatchObject({ status: "failed", error: { code: "spoof_suspected" } });
      else expect(row).toMatchObject({ status: "review", error: { code: "colour_response_unclear" } });
      console.log(`recorded light vs [${issued.colours.join(" ")}]: ${row.colour.verdict}, correlation ${row.colour.correlation}, response ${row.colour.response}`);
    } finally {
      await context.close();
    }
  });

  it("a recording under the room's light only never passes: inconclusive, a retake is offered with a clear message", async () => {
    const { s, context, page } = await atLivenessStep("steady");
    try {
      expect((await start(page, verifyText("liveness.start"))).attempts_left).toBe(1);
      await page.getByText(verifyText("liveness.colourLight.unclear")).waitFor({ timeout: 60_000 });
      await page.getByRole("button", { name: verifyText("common.tryAgain") }).waitFor();
      const row = await livenessRow(s.session_id);
      expect(row).toMatchObject({ status: "review", error: { code: "colour_response_unclear" }, colour: { verdict: "inconclusive" } });
    } finally {
      await context.close();
    }
  });

  it("\"I can't look at flashing colours\": no coloured light, and the result goes to review, never passed", async () => {
    const { s, context, page } = await atLivenessStep("screen");
    try {
      const overlay = await watchOverlay(page);
      const issued = await start(page, verifyText("liveness.colourLight.alternative"));
      expect(issued.colours).toEqual([]);
      await page.getByText(verifyText("liveness.colourLight.review")).waitFor({ timeout: 60_000 });
      expect(await overlay()).toEqual([]);
      const row = await livenessRow(s.session_id);
      expect(row).toMatchObject({ status: "review", error: { code: "colour_challenge_skipped" }, colour: { skipped: true } });
      await page.getByRole("button", { name: verifyText("common.continue") }).click();
      await page.getByRole("heading", { level: 1, name: "Thank you" }).waitFor();
      const decision = await api("GET", `/api/v2/session/${s.session_id}/decision`, { headers: keyHeader(t) });
      expect(decision.body.data.status).toBe("IN_REVIEW");
    } finally {
      await context.close();
    }
  });
});
