import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keysOf, verifyMessages, verifyText } from "../support/verify-text";
import { createSession, createTenant, createWorkflow, type Tenant } from "../support/api";
import { useServerDatabase } from "../support/domain";
import { FIXTURES } from "../support/images";
import { writeStillCamera } from "../fixtures/camera/generate-camera";
import { captureView, chromiumMissing, DESKTOP, launchChromium, PHONE } from "./browser";

/**
 * Issue 33 item 20 (docs/hosted-flow.md "Hosted flow on phones"): the hosted page on a
 * phone, in Chromium's mobile emulation (a phone's user agent, a phone
 * viewport, touch): a blocked camera is explained with how to allow it and
 * the camera app as a file picker, never "continue on your phone"; a phone
 * without a camera keeps its Start button. A desktop without a camera still
 * gets the QR hand-off.
 */
useServerDatabase();

const PIXEL_UA = "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36";
const LICENCE_A_FRONT = path.join(FIXTURES, "documents", "licence-a-front.jpg");

let t: Tenant;
let livenessWorkflow: string;
let documentAndLiveness: string;
let cameraDir: string;
let withCamera: Browser;
let noCamera: Browser;

const suiteName = chromiumMissing ? `hosted flow on phones (SKIPPED: ${chromiumMissing})` : "hosted flow on phones in Chromium";

/** A phone in Chromium's mobile emulation; `camera: false` refuses the camera permission, as a person who blocked it. */
function phoneContext(browser: Browser, { camera }: { camera: boolean }) {
  return browser.newContext({ viewport: PHONE, userAgent: PIXEL_UA, isMobile: true, hasTouch: true, deviceScaleFactor: 2, locale: "en-GB", permissions: camera ? ["camera"] : [] });
}

const heading = (page: Page, name: string | RegExp) => page.getByRole("heading", { level: 1, name });
const qrCode = (page: Page) => page.getByRole("img", { name: verifyText("handoff.qrAlt") });

async function expectAccessible(page: Page, name: string, sizes: Array<"phone" | "desktop">) {
  const serious = await captureView(page, name, { sizes });
  expect(serious, `${name}: serious/critical axe violations`).toEqual([]);
}

describe.skipIf(Boolean(chromiumMissing))(suiteName, { timeout: 120_000 }, () => {
  beforeAll(async () => {
    cameraDir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-phone-camera-"));
    const still = await writeStillCamera(path.join(cameraDir, "b-still.y4m"));
    [withCamera, noCamera] = await Promise.all([launchChromium(still), launchChromium("none")]);
    t = await createTenant();
    const liveness = { actions: ["turn_left", "turn_right"], actions_per_challenge: 2 };
    [livenessWorkflow, documentAndLiveness] = await Promise.all([
      createWorkflow(t, ["liveness"], { settings: { liveness } }),
      createWorkflow(t, ["id_verification", "liveness"], { settings: { liveness } }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([withCamera?.close(), noCamera?.close()]);
    if (cameraDir) fs.rmSync(cameraDir, { recursive: true, force: true });
  });

  it("a phone whose camera is blocked: how to allow it in Chrome and Safari, no QR hand-off", async () => {
    const s = await createSession(t, { workflow_id: livenessWorkflow });
    const context = await phoneContext(withCamera, { camera: false });
    const page = await context.newPage();
    try {
      await page.goto(s.url);
      await heading(page, "Test app would like to verify your identity").waitFor();
      await page.getByRole("button", { name: verifyText("start.begin") }).click();
      await heading(page, verifyText("liveness.heading")).waitFor();
      await page.getByRole("button", { name: verifyText("liveness.start") }).click();
      await page.getByText(verifyText("camera.problems.permission_denied.title")).waitFor();
      const help = page.getByTestId("phone-camera-help");
      await help.getByText(verifyText("camera.phone.permissionIntro")).waitFor();
      for (const b of keysOf(verifyMessages.camera.phone.browsers)) await help.getByText(verifyText(`camera.phone.browsers.${b}.steps`), { exact: false }).waitFor();
      await page.getByRole("button", { name: verifyText("common.tryAgain") }).waitFor();
      expect(await qrCode(page).count()).toBe(0);
      expect(await page.getByText(verifyText("handoff.noCamera")).count()).toBe(0);
      await expectAccessible(page, "phone-camera-blocked", ["phone"]);
    } finally {
      await context.close();
    }
  });

  it("a phone whose camera is blocked at the document: the camera app as a file picker (accept=image/*, capture), and its photo is taken", async () => {
    const s = await createSession(t, { workflow_id: documentAndLiveness });
    const context = await phoneContext(withCamera, { camera: false });
    const page = await context.newPage();
    try {
      await page.goto(s.url);
      await page.getByRole("button", { name: verifyText("start.begin") }).click();
      await heading(page, verifyText("document.heading")).waitFor();
      await page.getByLabel(verifyText("document.types.driving_licence")).check();
      await page.getByRole("button", { name: verifyText("document.takePhotoLabel", { side: "Front" }) }).click();
      await page.getByTestId("phone-camera-help").waitFor();
      await page.getByText(verifyText("camera.phone.cameraApp")).waitFor();
      const picker = page.getByLabel(verifyText("camera.cameraApp.environment", { side: "Front" }));
      expect(await picker.getAttribute("type")).toBe("file");
      expect(await picker.getAttribute("accept")).toBe("image/*");
      expect(await picker.getAttribute("capture")).toBe("environment");
      expect(await qrCode(page).count()).toBe(0);
      await expectAccessible(page, "phone-document-camera-blocked", ["phone"]);
      // What the camera app gives back is the side's photo.
      await picker.setInputFiles(LICENCE_A_FRONT);
      await page.getByRole("img", { name: verifyText("document.capturedAlt", { side: "Front" }) }).waitFor();
    } finally {
      await context.close();
    }
  });

  it("a phone with no camera keeps its Start button and is not sent to another phone", async () => {
    const s = await createSession(t, { workflow_id: livenessWorkflow });
    const context = await phoneContext(noCamera, { camera: true });
    const page = await context.newPage();
    try {
      await page.goto(s.url);
      await heading(page, "Test app would like to verify your identity").waitFor();
      const start = page.getByRole("button", { name: verifyText("start.begin") });
      await start.waitFor();
      expect(await start.isEnabled()).toBe(true);
      expect(await qrCode(page).count()).toBe(0);
      expect(await page.getByRole("button", { name: verifyText("handoff.useThisDevice") }).count()).toBe(0);
      await start.click();
      await page.getByRole("button", { name: verifyText("liveness.start") }).click();
      await page.getByText(verifyText("camera.phone.noCamera")).waitFor();
      expect(await qrCode(page).count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it("a desktop with no camera still gets the QR hand-off", async () => {
    const s = await createSession(t, { workflow_id: livenessWorkflow });
    const context = await noCamera.newContext({ viewport: DESKTOP, locale: "en-GB" });
    const page = await context.newPage();
    try {
      await page.goto(s.url);
      await page.getByText(verifyText("handoff.noCamera")).waitFor();
      await qrCode(page).waitFor();
      await page.getByRole("button", { name: verifyText("handoff.useThisDevice") }).waitFor();
    } finally {
      await context.close();
    }
  });
});
