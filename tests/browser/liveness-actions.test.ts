import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeStillCamera } from "../fixtures/camera/generate-camera";
import { api, createSession, createTenant, createWorkflow, keyHeader, type Tenant } from "../support/api";
import { useServerDatabase } from "../support/domain";
import { chromiumMissing, launchChromium, PHONE } from "./browser";
import { personInFrontOfCamera, personLog, POSE_OF_ACTION, WRONG_ACTION } from "./camera-person";
import { cueText, livenessEvidence, livenessOutcome, startLiveness } from "./liveness-page";

/**
 * The liveness step in Chromium with the larger challenge space: 3 actions
 * per challenge, drawn from turn_right, look_up, look_down and smile (4 x 3 x
 * 3 = 36 sequences, each with at least one look or smile: no action twice in
 * a row; blink is left out, person A has no picture with closed eyes). Person A (./camera-person.ts, real photos of him) follows the cues on
 * screen and passes on the first challenge, whichever it is; the same person
 * doing the wrong action each time fails. The server judges exactly the
 * frames the page took on its own schedule (7 frames: burst-schedule.ts).
 *
 * Without the colour light: person A's pictures sit 0.02-0.03 above the
 * same-person threshold and the colour challenge's light moves some frames
 * under it, so these tests of the movements use the photosensitive
 * alternative (no colours); a burst that meets every movement rule is then
 * `review` (`colour_challenge_skipped`). The colour part is tested in
 * colour-challenge.test.ts.
 */
useServerDatabase();

const SETTINGS = { actions: ["turn_right", "look_up", "look_down", "smile"], actions_per_challenge: 3, frames: 7, max_attempts: 2 };
const NEW_ACTIONS = ["look_up", "look_down", "smile"];

let t: Tenant;
let workflow: string;
let cameraDir: string;
let browser: Browser;

async function openLiveness(performs: "as_asked" | "reverse") {
  const s = await createSession(t, { workflow_id: workflow });
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, locale: "en-GB", permissions: ["camera"] });
  const page = await context.newPage();
  await personInFrontOfCamera(page, { performs });
  await page.goto(s.url);
  await page.getByRole("button", { name: "Start verification" }).click();
  await page.getByRole("heading", { level: 1, name: "Selfie video" }).waitFor();
  return { s, context, page };
}

const suiteName = chromiumMissing ? `liveness actions in the browser (SKIPPED: ${chromiumMissing})` : "liveness actions in Chromium";

describe.skipIf(Boolean(chromiumMissing))(suiteName, { timeout: 180_000 }, () => {
  beforeAll(async () => {
    cameraDir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-fake-camera-"));
    browser = await launchChromium(await writeStillCamera(path.join(cameraDir, "b-still.y4m")));
    t = await createTenant();
    workflow = await createWorkflow(t, ["liveness"], { settings: { liveness: SETTINGS } });
  });

  afterAll(async () => {
    await browser?.close();
    if (cameraDir) fs.rmSync(cameraDir, { recursive: true, force: true });
  });

  it("person A following the cues meets every movement rule of a 3-action challenge with a look or a smile, on the first try", async () => {
    const { s, context, page } = await openLiveness("as_asked");
    try {
      const challenge = await startLiveness(page, { withoutColours: true });
      console.log(`person A: the server asked for [${challenge.actions.join(", ")}]`);
      expect(challenge.actions).toHaveLength(3);
      expect(challenge.actions.some((a) => NEW_ACTIONS.includes(a))).toBe(true);
      expect(challenge.frames.recommended).toBe(7);
      await page.getByText(cueText(challenge.actions[0]!), { exact: true }).waitFor();
      await livenessOutcome(page, s.session_id, "review");
      console.log("the server measured:", JSON.stringify(await livenessEvidence(s.session_id)));
      const log = await personLog(page);
      expect(log.filter((e) => e.pose !== "frontal").map((e) => e.pose)).toEqual(challenge.actions.map((a) => POSE_OF_ACTION[a]));
      const decision = await api("GET", `/api/v2/session/${s.session_id}/decision`, { headers: keyHeader(t) });
      expect(decision.body.data.checks[0]).toMatchObject({ type: "liveness", status: "review", error: { code: "colour_challenge_skipped" } });
    } finally {
      await context.close();
    }
  });

  it("person A doing the wrong action each time (up for down, a turn for a smile, and so on) fails with action_not_detected", async () => {
    const { s, context, page } = await openLiveness("reverse");
    try {
      const challenge = await startLiveness(page, { withoutColours: true });
      console.log(`person A, wrong actions: the server asked for [${challenge.actions.join(", ")}]`);
      await livenessOutcome(page, s.session_id, "failed");
      await page.getByText(/We could not see the movements we asked for/).waitFor();
      const log = await personLog(page);
      expect(log.filter((e) => e.pose !== "frontal").map((e) => e.pose)).toEqual(challenge.actions.map((a) => POSE_OF_ACTION[WRONG_ACTION[a]!]));
      const decision = await api("GET", `/api/v2/session/${s.session_id}/decision`, { headers: keyHeader(t) });
      expect(decision.body.data.checks[0]).toMatchObject({ type: "liveness", status: "failed", error: { code: "action_not_detected" } });
    } finally {
      await context.close();
    }
  });
});
