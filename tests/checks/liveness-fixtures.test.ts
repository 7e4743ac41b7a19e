import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { livenessVerdict, type FrameFaces } from "@/lib/liveness/liveness-verdict";
import { analyseFaces, closeVisionPool } from "@/lib/vision/pool";

/**
 * The liveness verdict on real photos: the bursts of tests/fixtures/faces/
 * (README there: sources and licences; regenerate with
 * `npx tsx tests/fixtures/generate-faces.ts`) through the real face engine.
 */
const ROOT = path.join("tests", "fixtures", "faces");
type Sequence = { name: string; performs: string[]; frames: Array<{ file: string; content: string }> };
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, "manifest.json"), "utf8")) as Sequence[];

/** A sample of renderer B's bursts (tests/fixtures/attacks-b, README there): other photos, people, screens, prints and camera. */
const B_ROOT = path.join("tests", "fixtures", "attacks-b");
const B_SAMPLE = ["b-live-01", "b-live-02", "b-print-01", "b-print-03", "b-still-print-01", "b-screen-02"];
const bManifest = (JSON.parse(fs.readFileSync(path.join(B_ROOT, "manifest.json"), "utf8")) as Sequence[]).filter((b) => B_SAMPLE.includes(b.name));

const analysed = new Map<string, FrameFaces[]>();
const burst = (name: string) => {
  const frames = analysed.get(name);
  if (!frames) throw new Error(`no fixture sequence ${name}`);
  return frames;
};

beforeAll(async () => {
  for (const sequence of manifest) {
    analysed.set(sequence.name, await Promise.all(sequence.frames.map((f) => analyseFaces(fs.readFileSync(path.join(ROOT, f.file))))));
  }
  for (const sequence of bManifest) {
    analysed.set(sequence.name, await Promise.all(sequence.frames.map((f) => analyseFaces(fs.readFileSync(path.join(B_ROOT, f.file))))));
  }
});
afterAll(() => closeVisionPool());

describe("liveness verdict on real fixture bursts", () => {
  it("A turning left then right passes [turn_left, turn_right] and fails [turn_right, turn_left]", () => {
    const frames = burst("a-left-right");
    const passed = livenessVerdict(["turn_left", "turn_right"], frames);
    expect(passed.error).toBeNull();
    expect(passed.status).toBe("passed");
    expect(passed.live_score).toBeGreaterThanOrEqual(0.5);
    const [left, right] = passed.data.actions_detected;
    expect(left).toMatchObject({ action: "turn_left", detected: true, frame: 1 });
    expect(left!.value!).toBeLessThan(-12);
    expect(right).toMatchObject({ action: "turn_right", detected: true, frame: 3 });
    expect(right!.value!).toBeGreaterThan(12);
    expect(passed.data.faces_per_frame).toEqual([1, 1, 1, 1, 1]);
    expect([0, 2, 4]).toContain(passed.data.best_frame);
    expect(passed.data.model_scores.deciding).toBe(false);

    const reversed = livenessVerdict(["turn_right", "turn_left"], frames);
    expect(reversed.status).toBe("failed");
    expect(reversed.error?.code).toBe("action_not_detected");
    expect(reversed.live_score).toBeLessThan(0.5);
  });

  it("A turning right then left passes [turn_right, turn_left] and fails [turn_left, turn_right]", () => {
    const frames = burst("a-right-left");
    expect(livenessVerdict(["turn_right", "turn_left"], frames).status).toBe("passed");
    expect(livenessVerdict(["turn_left", "turn_right"], frames).status).toBe("failed");
  });

  it("a still face (A or B) fails every turn challenge", () => {
    for (const name of ["a-still", "b-still"]) {
      for (const actions of [["turn_left"], ["turn_right"], ["turn_left", "turn_right"]] as const) {
        const v = livenessVerdict([...actions], burst(name));
        expect(v.status, `${name} ${actions.join(",")}`).toBe("failed");
        expect(v.error?.code).toBe("action_not_detected");
      }
    }
  });

  it("no blink is seen in open-eyed bursts", () => {
    expect(livenessVerdict(["blink"], burst("a-still")).status).toBe("failed");
    expect(livenessVerdict(["blink"], burst("a-left-right")).status).toBe("failed");
  });

  it("A's identity changing to B mid-burst fails", () => {
    const v = livenessVerdict(["turn_left"], burst("a-then-b"));
    expect(v.status).toBe("failed");
    expect(v.error?.code).toBe("different_person");
    expect(v.error?.message).toMatch(/frame 4 of 5/);
    expect(v.data.same_person_min_similarity!).toBeLessThan(0.5);
  });

  it("a frame with two people fails", () => {
    const v = livenessVerdict(["turn_left"], burst("two-faces"));
    expect(v.status).toBe("failed");
    expect(v.error).toEqual({ code: "multiple_faces", message: expect.stringContaining("frame 2 of 5") });
    expect(v.data.faces_per_frame[1]).toBe(2);
    expect(v.live_score).toBe(0);
  });
});

describe("liveness verdict on a sample of renderer B (held out: other photos, screens, prints, camera), production defaults", () => {
  it("A's real head turns from other photos, through another camera, pass in the order performed and fail in the other", () => {
    const leftRight = burst("b-live-01");
    const passed = livenessVerdict(["turn_left", "turn_right"], leftRight);
    expect(passed).toMatchObject({ status: "passed", error: null });
    expect(passed.data.presentation_attack.suspected).toBe(false);
    expect(livenessVerdict(["turn_right", "turn_left"], leftRight).error?.code).toBe("action_not_detected");
    expect(livenessVerdict(["turn_right", "turn_left"], burst("b-live-02")).status).toBe("passed");
  });

  it("a curled, dithered print rotated to fake the turns, and one held still, fail every turn challenge", () => {
    for (const name of ["b-print-01", "b-print-03", "b-still-print-01"]) {
      for (const actions of [["turn_left", "turn_right"], ["turn_right", "turn_left"], ["turn_left"], ["turn_right"]] as const) {
        const v = livenessVerdict([...actions], burst(name));
        expect(v.status, `${name} ${actions.join(",")}`).toBe("failed");
      }
    }
  });

  it("a replay on a close, low-DPI phone screen performing the turns asked fails spoof_suspected", () => {
    const v = livenessVerdict(["turn_right", "turn_left"], burst("b-screen-02"));
    expect(v.data.actions_detected.every((a) => a.detected)).toBe(true);
    expect(v).toMatchObject({ status: "failed", live_score: 0, error: { code: "spoof_suspected" } });
    expect(v.data.presentation_attack.reasons).toContain("screen_or_print_texture");
  });
});
