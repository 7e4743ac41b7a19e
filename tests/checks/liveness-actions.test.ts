import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { LIVENESS_ACTIONS } from "@/lib/workflows/settings";
import { cameraPicturePng, PERSON_A, type HeadPose, type Pose } from "../fixtures/camera/generate-camera";
import { api, bearer, createSession, createTenant, createWorkflow, keyHeader, type Tenant } from "../support/api";
import { useServerDatabase } from "../support/domain";
import { imageForm } from "../support/images";

/**
 * The larger liveness challenge space through the API of the shared
 * production server (NODE_ENV=production, tests/support/global-setup.ts):
 * the default workflow asks for 3 of the 6 actions; person A (the browser
 * tests' camera pictures, real photos: tests/fixtures/camera/generate-camera.ts)
 * performs a challenge drawn from the five actions he has pictures for and
 * passes; doing a wrong action instead fails.
 */
useServerDatabase();

/** The actions person A can perform with real pictures of himself (no closed eyes: no blink). */
const PERFORMABLE = ["turn_left", "turn_right", "look_up", "look_down", "smile"] as const;
const POSE: Record<string, HeadPose> = { turn_left: "turned_left", turn_right: "turned_right", look_up: "looking_up", look_down: "looking_down", smile: "smiling" };
const WRONG: Record<string, string> = { turn_left: "turn_right", turn_right: "turn_left", look_up: "look_down", look_down: "look_up", smile: "turn_left" };

let t: Tenant;
let defaults: string;
let performable: string;
const jpegs = new Map<string, Buffer>();

async function picture(pose: Pose): Promise<Buffer> {
  const key = JSON.stringify(pose);
  if (!jpegs.has(key)) jpegs.set(key, await sharp(await cameraPicturePng(pose)).jpeg({ quality: 90 }).toBuffer());
  return jpegs.get(key)!;
}

/** Like the page's schedule: a frontal frame, then per action a move frame and a return frame (7 frames for 3 actions). */
async function burstPerforming(actions: string[]): Promise<Buffer[]> {
  const rest = PERSON_A.frontal;
  const frames = [await picture(rest[0]!)];
  for (const [i, action] of actions.entries()) {
    frames.push(await picture(PERSON_A[POSE[action]!][0]!));
    frames.push(await picture(rest[(i + 1) % rest.length]!));
  }
  return frames;
}

type Challenge = { challenge_id: string; actions: string[]; instructions: Array<{ action: string; text: string }>; frames: { min: number; max: number; recommended: number }; attempts_left: number };

/**
 * Person A's camera pictures sit 0.02-0.03 above the same-person threshold (look up 0.654, smile 0.649 against
 * his resting picture), and the colour challenge's light on them moves some frames under it (README "Liveness:
 * the colour challenge"): these tests of the movements ask for challenges without colours, whose bursts are
 * judged on every movement rule and, when all hold, recorded `review` (`colour_challenge_skipped`). The colour
 * part is tested in colour-challenge.test.ts.
 */
async function challenge(token: string) {
  const res = await api("POST", "/api/v2/antispoof/challenge", { headers: bearer(token), json: { skip_colours: true } });
  expect(res.status).toBe(201);
  return res.body.data as Challenge;
}

async function sendBurst(token: string, challengeId: string, frames: Buffer[]) {
  const res = await api("POST", "/api/v2/antispoof", { headers: bearer(token), form: imageForm({ frames }, { challenge_id: challengeId }) });
  expect(res.status).toBe(200);
  return res.body.data.checks.find((c: { type: string }) => c.type === "liveness");
}

beforeAll(async () => {
  t = await createTenant();
  [defaults, performable] = await Promise.all([
    createWorkflow(t, ["liveness"], { settings: { liveness: { max_attempts: 10 } } }),
    createWorkflow(t, ["liveness"], { settings: { liveness: { actions: [...PERFORMABLE], max_attempts: 2 } } }),
  ]);
});

describe("liveness challenge space", () => {
  it("a default workflow asks for 3 of the 6 actions, never one twice in a row, with an instruction each and 7 frames recommended", async () => {
    const workflow = await api("GET", `/api/v2/workflows/${defaults}`, { headers: keyHeader(t) });
    expect(workflow.status).toBe(200);
    expect(workflow.body.data.workflow.settings.liveness).toMatchObject({ actions: [...LIVENESS_ACTIONS], actions_per_challenge: 3, frames: 7 });
    const s = await createSession(t, { workflow_id: defaults });
    const seen = new Set<string>();
    const used = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const c = await challenge(s.session_token);
      expect(c.actions).toHaveLength(3);
      expect(c.actions[0]).not.toBe(c.actions[1]);
      expect(c.actions[1]).not.toBe(c.actions[2]);
      for (const a of c.actions) expect(LIVENESS_ACTIONS).toContain(a);
      expect(c.instructions.map((x) => x.action)).toEqual(c.actions);
      for (const x of c.instructions) expect(x.text.length).toBeGreaterThan(5);
      expect(c.frames).toMatchObject({ min: 3, max: 8, recommended: 7 });
      seen.add(c.actions.join(","));
      c.actions.forEach((a) => used.add(a));
    }
    // 150 equally likely sequences: 10 draws hold 4 or more repeats with probability under 0.03%.
    expect(seen.size).toBeGreaterThanOrEqual(7);
    // 30 actions drawn: two of the six never drawn has probability under 0.01%.
    expect(used.size).toBeGreaterThanOrEqual(5);
  });

  it("person A performing a 3-action challenge (turns, looks, smile) meets every movement rule", async () => {
    const s = await createSession(t, { workflow_id: performable });
    const c = await challenge(s.session_token);
    expect(c.actions).toHaveLength(3);
    const check = await sendBurst(s.session_token, c.challenge_id, await burstPerforming(c.actions));
    // Every movement rule held: only the skipped colours keep it from passing.
    expect(check, `asked ${c.actions.join(", ")}`).toMatchObject({ type: "liveness", status: "review", error: { code: "colour_challenge_skipped" } });
  });

  it("person A doing the wrong action each time (up for down, left for right, a turn for a smile) fails with action_not_detected", async () => {
    const s = await createSession(t, { workflow_id: performable });
    const c = await challenge(s.session_token);
    const check = await sendBurst(s.session_token, c.challenge_id, await burstPerforming(c.actions.map((a) => WRONG[a]!)));
    expect(check, `asked ${c.actions.join(", ")}`).toMatchObject({ type: "liveness", status: "failed", error: { code: "action_not_detected" } });
  });

  it("workflows keep their stored settings: the old three actions, two per challenge", async () => {
    const old = await createWorkflow(t, ["liveness"], { settings: { liveness: { actions: ["turn_left", "turn_right", "blink"], actions_per_challenge: 2, frames: 5 } } });
    const s = await createSession(t, { workflow_id: old });
    const c = await challenge(s.session_token);
    expect(c.actions).toHaveLength(2);
    for (const a of c.actions) expect(["turn_left", "turn_right", "blink"]).toContain(a);
    expect(c.frames.recommended).toBe(5);
  });
});
