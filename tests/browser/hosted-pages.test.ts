import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { qrSvg, svgDataUrl } from "@/components/verify/handoff/qr-code";
import { api, createSession, createTenant, createWorkflow, keyHeader, type Tenant } from "../support/api";
import { useServerDatabase } from "../support/domain";
import { FIXTURES } from "../support/images";
import { verifyText } from "../support/verify-text";
import { writeStillCamera } from "../fixtures/camera/generate-camera";
import { axeFindings, captureView, chromiumMissing, DESKTOP, launchChromium, PHONE } from "./browser";
import { personInFrontOfCamera, personLog } from "./camera-person";
import { cueText, livenessOutcome, startLiveness } from "./liveness-page";

/**
 * The hosted verification pages (`/verify/<id>#token=...`) in a real browser:
 * Debian's Chromium, driven by playwright-core, against the shared production
 * server. Geolocation is granted (or not) per browser context. Every view is
 * screenshotted at phone and desktop sizes (test-artifacts/screenshots/) and
 * checked with axe-core: no serious or critical violation is allowed.
 *
 * TWO CAMERAS.
 * - Chromium's own fake device playing a file (tests/fixtures/camera/
 *   generate-camera.ts): person B facing the camera and never moving. It
 *   fails every challenge whatever the order, so it needs no timing; it is
 *   also the camera of the document step and of the camera-permission views.
 * - For person A, who must pass, a test "person" (./camera-person.ts): the
 *   page's camera is replaced, in the test only, by a canvas on which A does
 *   what the instruction on screen says, when it says it. The server picks a
 *   random order of actions for each challenge and counts every challenge as
 *   an attempt (docs/hosted-flow.md "The checks"), so A must pass on the FIRST challenge,
 *   whichever order it asks; a person who turns the wrong way round must fail.
 *   The server judges exactly the frames the page took and sent: the same
 *   verdict a person would get.
 */
useServerDatabase();

const RETURN_URL = "https://shop.example/return?order=42";
const PARIS = { latitude: 48.8566, longitude: 2.3522 };
// Turns only: person A's pictures have no closed eyes, so he cannot blink.
const LIVENESS_SETTINGS = { actions: ["turn_left", "turn_right"], actions_per_challenge: 2, frames: 5, max_attempts: 2 };

let t: Tenant;
let fullWorkflow: string;
let locationWorkflow: string;
let livenessWorkflow: string;
let documentWorkflow: string;
let cameraDir: string;
/** Chromium with its fake camera playing person B (`b-still.y4m`); person A's pages replace it with a canvas. */
let withCamera: Browser;
let noCamera: Browser;

const suiteName = chromiumMissing ? `hosted verification pages (SKIPPED: ${chromiumMissing})` : "hosted verification pages in Chromium";
if (chromiumMissing) console.warn(`[tests/browser] skipped: ${chromiumMissing}`);

async function decision(sessionId: string) {
  const res = await api("GET", `/api/v2/session/${sessionId}/decision`, { headers: keyHeader(t) });
  expect(res.status).toBe(200);
  return res.body.data as { status: string; checks: Array<{ type: string; status: string; data: any; error: any }> };
}

/** A browser context with the return address served locally (the test machine reaches no shop). */
async function newContext(browser: Browser, options: { viewport?: { width: number; height: number }; camera?: boolean; geolocation?: boolean } = {}) {
  const viewport = options.viewport ?? PHONE;
  const context = await browser.newContext({
    viewport,
    // A phone-sized context is a phone: touch, mobile viewport (no "use your phone instead" offer).
    isMobile: viewport === PHONE,
    hasTouch: viewport === PHONE,
    locale: "en-GB",
    permissions: [...(options.camera === false ? [] : ["camera"]), ...(options.geolocation ? ["geolocation"] : [])],
    geolocation: options.geolocation ? PARIS : undefined,
  });
  await context.route("https://shop.example/**", (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><html lang=en><title>Shop</title><h1>Back at the shop</h1></html>" }),
  );
  return context;
}

async function expectAccessible(page: Page, name: string, options?: Parameters<typeof captureView>[2]) {
  const serious = await captureView(page, name, options);
  expect(serious, `${name}: serious/critical axe violations`).toEqual([]);
}

function heading(page: Page, name: string | RegExp) {
  return page.getByRole("heading", { level: 1, name });
}

/** The liveness step's attempts as the flow reports them: challenges issued. */
async function livenessAttempts(sessionToken: string) {
  const flow = await api("GET", "/api/v2/flow", { headers: { Authorization: `Bearer ${sessionToken}` } });
  return flow.body.data.steps.find((x: { type: string }) => x.type === "liveness").attempts as number;
}

const LICENCE_A_FRONT = path.join(FIXTURES, "documents", "licence-a-front.jpg");
const LICENCE_A_BACK = path.join(FIXTURES, "documents", "licence-a-back.jpg");

async function uploadLicenceA(page: Page) {
  await page.getByLabel("Driving licence").check();
  await page.getByLabel("Upload a photo: Front").setInputFiles(LICENCE_A_FRONT);
  await page.getByLabel("Upload a photo: Back").setInputFiles(LICENCE_A_BACK);
}

// Each journey waits up to a minute for a document or liveness verdict on a
// loaded 2-core machine: a test's limit is a hang guard, not a speed target.
describe.skipIf(Boolean(chromiumMissing))(suiteName, { timeout: 180_000 }, () => {
  beforeAll(async () => {
    cameraDir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-fake-camera-"));
    const stillB = await writeStillCamera(path.join(cameraDir, "b-still.y4m"));
    [withCamera, noCamera] = await Promise.all([launchChromium(stillB), launchChromium("none")]);
    t = await createTenant();
    [fullWorkflow, locationWorkflow, livenessWorkflow, documentWorkflow] = await Promise.all([
      // No manual-review band for face match: a face that does not match fails outright.
      createWorkflow(t, ["id_verification", "liveness", "face_match", "location"], { settings: { liveness: LIVENESS_SETTINGS, face_match: { review_margin: 0 } } }),
      createWorkflow(t, ["location"]),
      createWorkflow(t, ["liveness"], { settings: { liveness: LIVENESS_SETTINGS } }),
      createWorkflow(t, ["id_verification"]),
    ]);
  });

  afterAll(async () => {
    await Promise.all([withCamera?.close(), noCamera?.close()]);
    if (cameraDir) fs.rmSync(cameraDir, { recursive: true, force: true });
    const counts = new Map<string, number>();
    for (const f of axeFindings) counts.set(`${f.impact} ${f.id}: ${f.help}`, (counts.get(`${f.impact} ${f.id}: ${f.help}`) ?? 0) + 1);
    console.log(`axe-core findings over all views (any impact): ${counts.size ? [...counts].map(([k, n]) => `${k} (${n} views)`).join("; ") : "none"}`);
  });

  it("person A: document, live video, face match and location -> APPROVED, back at redirect_url with status=approved", async () => {
    const s = await createSession(t, {
      workflow_id: fullWorkflow,
      redirect_url: RETURN_URL,
      metadata: { expected_lat: PARIS.latitude, expected_lng: PARIS.longitude, radius_m: 1000 },
    });
    const context = await newContext(withCamera, { geolocation: true });
    const page = await context.newPage();
    await personInFrontOfCamera(page, { performs: "as_asked" });
    try {
      await page.goto(s.url);
      await heading(page, "Test app would like to verify your identity").waitFor();
      // The token left the address bar (it stays in sessionStorage).
      expect(page.url()).not.toContain("token=");
      await page.getByText("That your face matches the photo on your document.").waitFor();
      await expectAccessible(page, "01-start");
      await page.getByRole("button", { name: "Start verification" }).click();

      // Document: person A's licence, uploaded as files.
      await heading(page, "Your identity document").waitFor();
      await page.getByRole("navigation", { name: "Verification progress" }).getByText("Step 1 of 3").waitFor();
      await expectAccessible(page, "02-document-type");
      await uploadLicenceA(page);
      await expectAccessible(page, "03-document-ready");
      await page.getByRole("button", { name: "Send my document" }).click();
      await page.getByText("Your document has been checked.").waitFor({ timeout: 60_000 });
      await expectAccessible(page, "04-document-checked");
      await page.getByRole("button", { name: "Continue" }).click();

      // Liveness: A follows the instructions of the first challenge, whatever its order.
      await heading(page, "Selfie video").waitFor();
      await page.getByText("You have 2 tries left.").waitFor();
      await expectAccessible(page, "05-liveness-intro");
      const challenge = await startLiveness(page);
      expect(challenge.attempts_left).toBe(1);
      console.log(`person A (full flow): the server asked for [${challenge.actions.join(", ")}]`);
      await page.getByText(cueText(challenge.actions[0]!), { exact: true }).waitFor();
      await page.screenshot({ path: path.join("test-artifacts", "screenshots", "06-liveness-instruction-phone.png") });
      await livenessOutcome(page, s.session_id, "passed");
      expect(await livenessAttempts(s.session_token)).toBe(1);
      await expectAccessible(page, "07-liveness-passed");
      await page.getByRole("button", { name: "Continue" }).click();

      // Location: granted, inside the expected radius.
      await heading(page, "Your location").waitFor();
      await expectAccessible(page, "08-location-intro");
      await page.getByRole("button", { name: "Share my location" }).click();
      await page.getByText("Thanks, your location has been shared.").waitFor();
      await page.getByRole("button", { name: "Continue" }).click();

      // Finish: the final page, then back to the app with the status hint.
      await heading(page, "Thank you").waitFor();
      await page.waitForURL((url) => url.hostname === "shop.example", { timeout: 20_000 });
      const back = new URL(page.url());
      expect(back.pathname).toBe("/return");
      expect(Object.fromEntries(back.searchParams)).toEqual({ order: "42", status: "approved", session_id: s.session_id });

      const d = await decision(s.session_id);
      expect(d.status).toBe("APPROVED");
      expect(Object.fromEntries(d.checks.map((c) => [c.type, c.status]))).toEqual({
        id_verification: "passed",
        liveness: "passed",
        face_match: "passed",
        location: "passed",
      });
    } finally {
      await context.close();
    }
  });

  it("person B's video with A's documents: the video fails (with a retry), face match fails -> DECLINED, status=declined", async () => {
    const s = await createSession(t, {
      workflow_id: fullWorkflow,
      redirect_url: RETURN_URL,
      metadata: { expected_lat: PARIS.latitude, expected_lng: PARIS.longitude, radius_m: 1000 },
    });
    const context = await newContext(withCamera, { geolocation: true });
    const page = await context.newPage();
    try {
      await page.goto(s.url);
      await page.getByRole("button", { name: "Start verification" }).click();
      await heading(page, "Your identity document").waitFor();
      await uploadLicenceA(page);
      await page.getByRole("button", { name: "Send my document" }).click();
      await page.getByText("Your document has been checked.").waitFor({ timeout: 60_000 });
      await page.getByRole("button", { name: "Continue" }).click();

      // B (Chromium's file camera) never turns her head: every challenge fails. Two attempts (the workflow's max_attempts).
      await heading(page, "Selfie video").waitFor();
      expect((await startLiveness(page)).attempts_left).toBe(1);
      await livenessOutcome(page, s.session_id, "failed");
      await page.getByText("You have 1 try left.").waitFor();
      await page.getByText(/We could not see the movements we asked for/).waitFor();
      await expectAccessible(page, "09-liveness-failed-retry");
      expect((await startLiveness(page)).attempts_left).toBe(0);
      await page.getByText(/You have no tries left for this step/).waitFor({ timeout: 60_000 });
      await expectAccessible(page, "10-liveness-no-tries-left");
      await page.getByRole("button", { name: "Continue" }).click();

      await heading(page, "Your location").waitFor();
      await page.getByRole("button", { name: "Share my location" }).click();
      await page.getByText("Thanks, your location has been shared.").waitFor();
      await page.getByRole("button", { name: "Continue" }).click();

      await page.waitForURL((url) => url.hostname === "shop.example", { timeout: 20_000 });
      expect(new URL(page.url()).searchParams.get("status")).toBe("declined");
      const d = await decision(s.session_id);
      expect(d.status).toBe("DECLINED");
      const byType = Object.fromEntries(d.checks.map((c) => [c.type, c]));
      expect(byType.id_verification!.status).toBe("passed");
      expect(byType.liveness).toMatchObject({ status: "failed", error: { code: "action_not_detected" } });
      expect(byType.face_match!.status).toBe("failed");
      expect(byType.location!.status).toBe("passed");
    } finally {
      await context.close();
    }
  });

  it("a person who turns the wrong way round fails the attempt; Stop uses a try too, then the step is over", async () => {
    const s = await createSession(t, { workflow_id: livenessWorkflow });
    const context = await newContext(withCamera);
    const page = await context.newPage();
    await personInFrontOfCamera(page, { performs: "reverse" });
    try {
      await page.goto(s.url);
      await page.getByRole("button", { name: "Start verification" }).click();
      await heading(page, "Selfie video").waitFor();
      const challenge = await startLiveness(page);
      console.log(`person A, wrong way round: the server asked for [${challenge.actions.join(", ")}]`);
      await livenessOutcome(page, s.session_id, "failed");
      await page.getByText(/We could not see the movements we asked for/).waitFor();
      await page.getByText("You have 1 try left.").waitFor();
      // He did move, in the opposite order: the first action asked was the one not seen in its place.
      const log = await personLog(page);
      const opposite = { turn_left: "turned_right", turn_right: "turned_left" } as Record<string, string>;
      expect(log.filter((e) => e.pose !== "frontal").map((e) => e.pose)).toEqual(challenge.actions.map((a) => opposite[a]));
      expect((await decision(s.session_id)).checks[0]).toMatchObject({ type: "liveness", status: "failed", error: { code: "action_not_detected" } });

      // The last try: asked for, then abandoned with Stop. It is used all the same.
      expect((await startLiveness(page)).attempts_left).toBe(0);
      await page.getByRole("button", { name: "Stop" }).click();
      await page.getByText(/You have no tries left for this step/).waitFor();
      await expectAccessible(page, "10b-liveness-stopped-no-tries-left", { sizes: ["phone"] });
      expect(await livenessAttempts(s.session_token)).toBe(2);
      const refused = await api("POST", "/api/v2/antispoof/challenge", { headers: { Authorization: `Bearer ${s.session_token}` } });
      expect(refused.body.error.code).toBe("too_many_attempts");
    } finally {
      await context.close();
    }
  });

  it("tries run out by stopping too, with no result recorded; after a reload the step is behind the person", async () => {
    const s = await createSession(t, { workflow_id: livenessWorkflow });
    const context = await newContext(withCamera);
    const page = await context.newPage();
    try {
      await page.goto(s.url);
      await page.getByRole("button", { name: "Start verification" }).click();
      await page.getByText(`You have 2 tries left. ${verifyText("liveness.eachStartUsesATry")}`).waitFor();
      expect((await startLiveness(page)).attempts_left).toBe(1);
      await page.getByRole("button", { name: "Stop" }).click();
      await page.getByText(verifyText("liveness.stopped")).waitFor();
      await page.getByText("You have 1 try left.", { exact: false }).waitFor();
      expect((await startLiveness(page)).attempts_left).toBe(0);
      await page.getByRole("button", { name: "Stop" }).click();
      await page.getByText(/You have no tries left for this step/).waitFor();

      await page.reload();
      await page.getByRole("button", { name: "Start verification" }).click();
      await heading(page, "Thank you").waitFor();
      const d = await decision(s.session_id);
      expect(d.status).toBe("DECLINED");
      expect(d.checks.filter((c) => c.type === "liveness" && c.status === "passed")).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("document step: camera capture with a frame guide; a refused photo (422) is explained at the side to retake, and the retake goes through", async () => {
    const s = await createSession(t, { workflow_id: documentWorkflow });
    const context = await newContext(withCamera);
    const page = await context.newPage();
    try {
      await page.goto(s.url);
      await page.getByRole("button", { name: "Start verification" }).click();
      await page.getByLabel("Driving licence").check();
      // The camera: live preview inside a frame guide, one still, shown back exactly as taken.
      await page.getByRole("button", { name: "Take a photo: Front" }).click();
      const capture = page.getByRole("button", { name: "Take the photo: Front" });
      await expect.poll(() => capture.isEnabled(), { timeout: 10_000 }).toBe(true);
      await expectAccessible(page, "20-document-camera");
      await capture.click();
      await page.getByRole("img", { name: "The photo you took: Front" }).waitFor();
      await page.getByRole("button", { name: "Retake: Front" }).click();

      // The front uploaded as the back too: no barcode there -> 422, explained next to the back.
      await page.getByLabel("Upload a photo: Front").setInputFiles(LICENCE_A_FRONT);
      await page.getByLabel("Upload a photo: Back").setInputFiles(LICENCE_A_FRONT);
      await page.getByRole("button", { name: "Send my document" }).click();
      await page.getByRole("alert").getByText("We could not read the barcode on the back.", { exact: false }).waitFor({ timeout: 60_000 });
      await expectAccessible(page, "21-document-refused-retake");
      await page.getByRole("button", { name: "Retake: Back" }).click();
      await page.getByLabel("Upload a photo: Back").setInputFiles(LICENCE_A_BACK);
      await page.getByRole("button", { name: "Send my document" }).click();
      await page.getByText("Your document has been checked.").waitFor({ timeout: 60_000 });
      expect((await decision(s.session_id)).checks).toEqual([expect.objectContaining({ type: "id_verification", status: "passed" })]);
    } finally {
      await context.close();
    }
  });

  it("location permission blocked: a clear message and a retry path; sent as such, the location check fails", async () => {
    const s = await createSession(t, { workflow_id: locationWorkflow, metadata: { expected_lat: PARIS.latitude, expected_lng: PARIS.longitude, radius_m: 1000 } });
    const context = await newContext(noCamera, { viewport: DESKTOP, geolocation: false, camera: false });
    // The app's logo (`app.logo`, a data URL or null): this test app has none, so one is added to the
    // flow the page reads, to see that the page shows who is asking with it.
    await context.route("**/api/v2/flow", async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      body.data.app.logo = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="#0f766e"/></svg>')}`;
      await route.fulfill({ response, json: body });
    });
    const page = await context.newPage();
    try {
      await page.goto(s.url);
      await page.getByRole("banner").getByRole("img", { name: "Test app logo" }).waitFor();
      await page.getByRole("button", { name: "Start verification" }).click();
      await heading(page, "Your location").waitFor();
      await page.getByRole("button", { name: "Share my location" }).click();
      await page.getByText("Location access is blocked").waitFor();
      await page.getByRole("button", { name: "Try again" }).waitFor();
      await expectAccessible(page, "11-location-blocked");
      // Already recorded as a failed check (spec 2.2 rule 1), before the person decides.
      let d = await decision(s.session_id);
      expect(d.checks).toEqual([expect.objectContaining({ type: "location", status: "failed", error: expect.objectContaining({ reason: "permission_denied" }) })]);

      await page.getByRole("button", { name: "Continue without sharing" }).click();
      // No redirect_url: the final page stays.
      await heading(page, "Thank you").waitFor();
      await page.getByText("You can close this page.").waitFor();
      await expectAccessible(page, "12-final-page");
      d = await decision(s.session_id);
      expect(d.status).toBe("DECLINED");
      expect(d.checks[0]).toMatchObject({ type: "location", status: "failed", error: { code: "location_unavailable", reason: "permission_denied" } });
    } finally {
      await context.close();
    }
  });

  it("expired, unknown, incomplete and closed links show friendly pages", async () => {
    const { expireDueSessions } = await import("@/lib/sessions/expire-sessions");
    const expired = await createSession(t, { workflow_id: locationWorkflow, ttl_seconds: 300, redirect_url: RETURN_URL });
    await expireDueSessions({ appId: t.appId, at: new Date(Date.now() + 301_000) });
    const closed = await createSession(t, { workflow_id: locationWorkflow });
    const bearer = { Authorization: `Bearer ${closed.session_token}` };
    await api("POST", "/api/v2/location", { headers: bearer, json: { lat: PARIS.latitude, lng: PARIS.longitude } });
    expect((await api("POST", "/api/v2/flow/finish", { headers: bearer })).body.data.status).toBe("APPROVED");

    const context = await newContext(noCamera, { camera: false });
    const page = await context.newPage();
    try {
      await page.goto(expired.url);
      await heading(page, "This verification link has expired").waitFor();
      await page.getByText("Go back to Test app to start a new verification.", { exact: false }).waitFor();
      const back = await page.getByRole("link", { name: "Return to Test app" }).getAttribute("href");
      expect(Object.fromEntries(new URL(back!).searchParams)).toEqual({ order: "42", status: "expired", session_id: expired.session_id });
      await expectAccessible(page, "13-expired");

      const base = new URL(expired.url).origin;
      await page.goto(`${base}/verify/${expired.session_id}#token=st_not_a_real_token`);
      await heading(page, "We can't find this verification").waitFor();
      await expectAccessible(page, "14-unknown", { sizes: ["phone"] });

      const fresh = await context.newPage();
      await fresh.goto(`${base}/verify/${closed.session_id}`);
      await heading(fresh, "This link is incomplete").waitFor();
      await fresh.goto(closed.url);
      await heading(fresh, "This verification is already complete").waitFor();
      await expectAccessible(fresh, "15-already-complete", { sizes: ["phone"] });
      for (const p of [page, fresh]) expect(await p.locator("body").innerText()).not.toMatch(/Error|at .*\.(js|ts):\d+|stack/);
    } finally {
      await context.close();
    }
  });

  it("a desktop without a camera offers a QR code of the same session; the phone does the step and the desktop follows and finishes", async () => {
    const s = await createSession(t, { workflow_id: livenessWorkflow, redirect_url: RETURN_URL });
    const desktopContext = await newContext(noCamera, { viewport: DESKTOP, camera: false });
    const desktop = await desktopContext.newPage();
    const phoneContext = await newContext(withCamera);
    const phone = await phoneContext.newPage();
    await personInFrontOfCamera(phone, { performs: "as_asked" });
    try {
      await desktop.goto(s.url);
      await heading(desktop, "Test app would like to verify your identity").waitFor();
      await desktop.getByText("This device has no camera we can use.", { exact: false }).waitFor();
      const qr = desktop.getByRole("img", { name: "QR code that opens this verification on your phone" });
      await qr.waitFor();
      // The code is exactly the session's own link (token in the fragment) plus handoff=1.
      const handoffUrl = `${s.url}&handoff=1`;
      expect(await qr.getAttribute("src")).toBe(svgDataUrl(await qrSvg(handoffUrl)));
      await expectAccessible(desktop, "16-no-camera-qr", { sizes: ["desktop", "phone"] });

      await phone.goto(handoffUrl);
      await phone.getByRole("button", { name: "Start verification" }).click();
      await heading(phone, "Selfie video").waitFor();
      const challenge = await startLiveness(phone);
      console.log(`person A (phone): the server asked for [${challenge.actions.join(", ")}]`);
      await livenessOutcome(phone, s.session_id, "passed");
      expect(await livenessAttempts(s.session_token)).toBe(1);

      // The desktop saw the phone's progress.
      await heading(desktop, "Continue on your phone").waitFor({ timeout: 15_000 });
      await expectAccessible(desktop, "17-desktop-following", { sizes: ["desktop"] });

      await phone.getByRole("button", { name: "Continue" }).click();
      await heading(phone, "Thank you").waitFor();
      await phone.getByText("You can now go back to your computer", { exact: false }).waitFor();
      await expectAccessible(phone, "18-phone-done", { sizes: ["phone"] });
      // The phone stays on its final page; the desktop finishes and returns to the app.
      await desktop.waitForURL((url) => url.hostname === "shop.example", { timeout: 20_000 });
      expect(Object.fromEntries(new URL(desktop.url()).searchParams)).toEqual({ order: "42", status: "approved", session_id: s.session_id });
      expect(new URL(phone.url()).hostname).not.toBe("shop.example");
      expect((await decision(s.session_id)).status).toBe("APPROVED");
    } finally {
      await Promise.all([desktopContext.close(), phoneContext.close()]);
    }
  });

  it("camera problems are explained: permission denied, and an iframe without allow=\"camera\" (with a way out)", async () => {
    const s = await createSession(t, { workflow_id: livenessWorkflow });
    // A context without the camera permission: the browser refuses (NotAllowedError).
    const denied = await newContext(withCamera, { camera: false });
    const page = await denied.newPage();
    try {
      await page.goto(s.url);
      await page.getByRole("button", { name: "Start verification" }).click();
      await page.getByRole("button", { name: "Start the camera" }).click();
      await page.getByText("Camera access is blocked").waitFor();
      await page.getByRole("button", { name: "Try again" }).waitFor();
      await expectAccessible(page, "19-camera-blocked", { sizes: ["phone"] });
      // The camera opens before a challenge is asked for: a camera problem uses no try.
      expect(await livenessAttempts(s.session_token)).toBe(0);
    } finally {
      await denied.close();
    }

    // Embedded by another site (another origin: a second local server) in an iframe without allow="camera".
    const embedding = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(`<!doctype html><html lang=en><title>Shop</title><iframe title="Verification" src="${s.url}" style="width:100%;height:90vh"></iframe></html>`);
    });
    await new Promise<void>((resolve) => embedding.listen(0, "127.0.0.1", resolve));
    const embeddingOrigin = `http://127.0.0.1:${(embedding.address() as AddressInfo).port}`;
    // The app lets that site frame its hosted page (else Chromium shows nothing: tests/browser/framing.test.ts).
    const { setFrameOrigins } = await import("@/lib/tenancy/frame-origins");
    await setFrameOrigins(t.appId, [embeddingOrigin]);
    const context = await newContext(withCamera, { viewport: DESKTOP });
    const host = await context.newPage();
    try {
      await host.goto(`${embeddingOrigin}/`);
      const frame = host.frameLocator("iframe");
      await frame.getByRole("button", { name: "Start verification" }).click();
      await frame.getByRole("button", { name: "Start the camera" }).click();
      await frame.getByText("The camera is not available inside this window").waitFor();
      const newTab = await frame.getByRole("link", { name: "Open in a new tab" }).getAttribute("href");
      expect(newTab).toBe(s.url);
    } finally {
      await setFrameOrigins(t.appId, []);
      await context.close();
      embedding.close();
    }
  });
});
