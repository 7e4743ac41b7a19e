import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { livenessVerdict, type FrameFaces } from "@/lib/liveness/liveness-verdict";
import { analyseFaces, closeVisionPool } from "@/lib/vision/pool";
import { cameraPicturePng, PERSON_A, type Pose } from "../fixtures/camera/generate-camera";

/**
 * The new liveness actions (look_up, look_down, smile) measured by the real
 * face engine on real photos: cells of @vladmandic/human's
 * assets/screenshot-facematch.jpg (MIT; tests/fixtures/faces/README.md),
 * through the same camera pipeline as the browser tests' person A (320 px on
 * a 640x480 wall, JPEG 90 like the page's capture). Each action both ways:
 * performed -> detected, not performed -> not detected.
 */
const REST = PERSON_A.frontal;
const DOWN = PERSON_A.looking_down[0]!;
const SMILE = PERSON_A.smiling[0]!;
/** A's webcam picture (assets/screenshot-faceid.jpg), the camera below his face. */
const LOOKING_UP = PERSON_A.looking_up[0]!;
/** r1c2: the man of row 1 (very likely person A) with his head tilted far back, seen from below. */
const UP: Pose = { col: 2, row: 1, jitter: 0 };

const analysed = new Map<string, FrameFaces>();
const key = (p: Pose) => JSON.stringify(p);

async function analyse(pose: Pose): Promise<FrameFaces> {
  const jpeg = await sharp(await cameraPicturePng(pose)).jpeg({ quality: 90 }).toBuffer();
  return analyseFaces(new Uint8Array(jpeg));
}

beforeAll(async () => {
  for (const pose of [...REST, DOWN, SMILE, UP, LOOKING_UP, ...PERSON_A.turned_left, ...PERSON_A.turned_right]) analysed.set(key(pose), await analyse(pose));
}, 120_000);
afterAll(() => closeVisionPool());

const burst = (...poses: Pose[]) => poses.map((p) => analysed.get(key(p))!);
const [r0, r1, r2] = REST as [Pose, Pose, Pose];
const detected = (v: ReturnType<typeof livenessVerdict>) => v.data.actions_detected.map((d) => d.detected);

describe("look_down on real photos", () => {
  const frames = () => burst(r0, r1, DOWN, r2, r0);

  it("A tilting his head forward passes [look_down], with the pitch going up from his resting pitch", () => {
    const v = livenessVerdict(["look_down"], frames());
    expect(v.error).toBeNull();
    expect(v.status).toBe("passed");
    const [down] = v.data.actions_detected;
    expect(down).toMatchObject({ action: "look_down", detected: true, frame: 2 });
    expect(down!.value!).toBeGreaterThanOrEqual(7);
    // The resting frames stay frontal: the look is not the baseline.
    expect(v.data.baseline_frame).not.toBe(2);
  });

  it("the same frames fail [look_up], [smile] and [blink]: a look down is none of them", () => {
    for (const action of ["look_up", "smile", "blink"] as const) {
      const v = livenessVerdict([action], frames());
      expect(v.error?.code, action).toBe("action_not_detected");
    }
  });

  it("a still face fails [look_down] (camera jitter is not a look)", () => {
    const v = livenessVerdict(["look_down"], burst(r0, r1, r2, r0, r1));
    expect(v.error?.code).toBe("action_not_detected");
    expect(Math.abs(v.data.actions_detected[0]!.value!)).toBeLessThan(3);
  });
});

describe("look_up on real photos", () => {
  it("A seen from below (chin up) passes [look_up] and fails [look_down]", () => {
    const frames = burst(r0, r1, LOOKING_UP, r2, r0);
    const v = livenessVerdict(["look_up"], frames);
    expect(v.error).toBeNull();
    expect(v.data.actions_detected[0]).toMatchObject({ action: "look_up", detected: true, frame: 2 });
    expect(v.data.actions_detected[0]!.value!).toBeLessThanOrEqual(-7);
    // His yaw is straighter there (-1.5 against +9.4 at rest), yet the selfie for face match is a resting frame.
    expect([0, 1, 3, 4]).toContain(v.data.best_frame);
    expect([0, 1, 3, 4]).toContain(v.data.baseline_frame);
    expect(livenessVerdict(["look_down"], frames).error?.code).toBe("action_not_detected");
  });

  it("a head tilted back reads as look_up, not look_down (the pitch sign), though it is too unlike A's resting face to pass", () => {
    const frames = burst(r0, r1, UP, r2, r0);
    const up = livenessVerdict(["look_up"], frames);
    expect(up.data.actions_detected[0]).toMatchObject({ action: "look_up", detected: true, frame: 2 });
    expect(up.data.actions_detected[0]!.value!).toBeLessThanOrEqual(-7);
    // Similarity 0.45-0.50 to his resting face: refused as another person, never passed.
    expect(up.error?.code).toBe("different_person");
    expect(livenessVerdict(["look_down"], frames).data.actions_detected[0]!.detected).toBe(false);
  });
});

describe("smile on real photos", () => {
  it("A smiling with teeth passes [smile]: the mouth widens over his resting mouth", () => {
    const v = livenessVerdict(["smile"], burst(r0, r1, SMILE, r2, r0));
    expect(v.error).toBeNull();
    const [smile] = v.data.actions_detected;
    expect(smile).toMatchObject({ action: "smile", detected: true, frame: 2 });
    expect(smile!.value!).toBeGreaterThanOrEqual(1.12);
  });

  it("a still face and a look down fail [smile]", () => {
    expect(livenessVerdict(["smile"], burst(r0, r1, r2, r0, r1)).error?.code).toBe("action_not_detected");
    expect(livenessVerdict(["smile"], burst(r0, DOWN, r1, r2)).error?.code).toBe("action_not_detected");
  });

  it("a smile is no look: [look_up] and [look_down] fail on the smiling burst", () => {
    const frames = burst(r0, r1, SMILE, r2, r0);
    expect(detected(livenessVerdict(["look_up"], frames))).toEqual([false]);
    expect(detected(livenessVerdict(["look_down"], frames))).toEqual([false]);
  });
});

describe("three actions in order on real photos", () => {
  const left = PERSON_A.turned_left[0]!;
  const right = PERSON_A.turned_right[0]!;

  it("[look_down, smile, turn_right] performed in that order passes; any other order of the same frames fails", () => {
    const frames = burst(r0, DOWN, r1, SMILE, r2, right, r0);
    const v = livenessVerdict(["look_down", "smile", "turn_right"], frames);
    expect(v.error).toBeNull();
    expect(detected(v)).toEqual([true, true, true]);
    for (const order of [
      ["smile", "look_down", "turn_right"],
      ["turn_right", "smile", "look_down"],
      ["look_down", "turn_right", "smile"],
    ] as const) {
      expect(livenessVerdict([...order], frames).error?.code, order.join(",")).toBe("action_not_detected");
    }
  });

  it("[look_up, turn_left, look_down] performed in that order passes; up and down swapped fails", () => {
    const frames = burst(r0, LOOKING_UP, r1, left, r2, DOWN, r0);
    expect(livenessVerdict(["look_up", "turn_left", "look_down"], frames).error).toBeNull();
    expect(livenessVerdict(["look_down", "turn_left", "look_up"], frames).error?.code).toBe("action_not_detected");
  });

  it("[turn_left, look_down, smile] fails when the person smiles where the look down was asked", () => {
    const v = livenessVerdict(["turn_left", "look_down", "smile"], burst(r0, left, r1, SMILE, r2, DOWN, r0));
    expect(v.error?.code).toBe("action_not_detected");
  });
});
