import { describe, expect, it } from "vitest";
import { livenessVerdict, type FrameFaces } from "@/lib/liveness/liveness-verdict";
import { affineResidual, type Point } from "@/lib/liveness/flatness";
import { PAD_DEFAULTS, presentationAttackVerdict } from "@/lib/liveness/presentation-attack";

/**
 * A head as 18 3-D points in the order of workers/presentation-cues.mjs
 * LANDMARK_INDICES (mesh 1, 4, 6, 9, 10, 33, 61, 98, 133, 152, 168, 199, 234,
 * 263, 291, 327, 362, 454), in units of half the eye distance: the nose
 * stands out of the face (z > 0), the cheeks' edges lie behind it.
 */
const HEAD: Array<[number, number, number]> = [
  [0, 0.4, 1.1], // 1 nose tip
  [0, 0.2, 1.0], // 4 nose
  [0, -0.6, 0.5], // 6 nose bridge
  [0, -1.2, 0.45], // 9 glabella
  [0, -2.2, 0.4], // 10 forehead
  [-1, -0.8, 0], // 33 right eye outer
  [-0.6, 1.2, 0.2], // 61 mouth right
  [-0.3, 0.5, 0.5], // 98 nostril right
  [-0.4, -0.8, 0.2], // 133 right eye inner
  [0, 2.4, 0.2], // 152 chin
  [0, -0.9, 0.5], // 168 between the eyes
  [0, 2.0, 0.3], // 199 chin top
  [-1.6, 0, -0.8], // 234 right cheek edge
  [1, -0.8, 0], // 263 left eye outer
  [0.6, 1.2, 0.2], // 291 mouth left
  [0.3, 0.5, 0.5], // 327 nostril left
  [0.4, -0.8, 0.2], // 362 left eye inner
  [1.6, 0, -0.8], // 454 left cheek edge
];

/** Camera image of 3-D points turned by `yawDeg` about the vertical axis: pinhole at distance `distance`, 100 px per unit. */
function project(points: Array<[number, number, number]>, yawDeg: number, distance = 20): Point[] {
  const a = (yawDeg * Math.PI) / 180;
  return points.map(([x, y, z]) => {
    const xr = x * Math.cos(a) + z * Math.sin(a);
    const zr = -x * Math.sin(a) + z * Math.cos(a);
    const scale = (100 * distance) / (distance - zr);
    return [320 + xr * scale, 240 + y * scale] as const;
  });
}
const flatten = (points: Array<[number, number, number]>): Array<[number, number, number]> => points.map(([x, y]) => [x, y, 0]);

describe("affineResidual: does a turn move like a head or like a sheet?", () => {
  it("an affine image of the same points has no residual", () => {
    const frontal = project(HEAD, 0);
    const moved = frontal.map(([x, y]) => [0.8 * x + 0.1 * y + 12, -0.05 * x + 1.1 * y - 7] as const);
    expect(affineResidual(frontal, moved)).toBeLessThan(1e-9);
  });

  it("a head turned 20 degrees leaves a large residual, a photo of it tilted 20 or 40 degrees a small one", () => {
    const frontal = project(HEAD, 0);
    const head = affineResidual(frontal, project(HEAD, 20))!;
    const sheet20 = affineResidual(project(flatten(HEAD), 0), project(flatten(HEAD), 20))!;
    const sheet40 = affineResidual(project(flatten(HEAD), 0), project(flatten(HEAD), 40))!;
    expect(head).toBeGreaterThan(PAD_DEFAULTS.flat_turn_ratio * Math.sin((20 * Math.PI) / 180));
    expect(sheet20).toBeLessThan(0.01);
    expect(sheet40).toBeLessThan(0.02);
  });

  it("refuses what it cannot compare", () => {
    expect(affineResidual(project(HEAD, 0).slice(0, 4), project(HEAD, 10).slice(0, 4))).toBeNull();
    expect(affineResidual(project(HEAD, 0), project(HEAD, 10).slice(1))).toBeNull();
  });
});

type FaceCues = { landmarks?: Point[] | null; moire?: number | null; glare?: number | null; yaw?: number };

function face(cues: FaceCues = {}): FrameFaces["faces"][number] {
  return {
    box: [100, 100, 240, 240],
    score: 1,
    box_score: 0.9,
    face_score: 1,
    embedding: [1, 0, 0, 0],
    rotation: { yaw: ((cues.yaw ?? 0) * Math.PI) / 180, pitch: 0, roll: 0 },
    ear: { left: 0.35, right: 0.36 },
    antispoof: 0.6,
    live: 0.9,
    landmarks: (cues.landmarks as Array<[number, number]> | null | undefined) ?? null,
    texture: { moire: cues.moire ?? 1.5, glare: cues.glare ?? 0 },
  };
}
const frame = (cues: FaceCues = {}): FrameFaces => ({ faces: [face(cues)], width: 640, height: 480, ms: 1, model: "test" });

/** A live head turning left then right: real parallax. */
const liveTurns = () => [frame({ landmarks: project(HEAD, 0) }), frame({ yaw: -22, landmarks: project(HEAD, -22) }), frame({ landmarks: project(HEAD, 0) }), frame({ yaw: 22, landmarks: project(HEAD, 22) }), frame({ landmarks: project(HEAD, 0) })];

describe("presentation-attack verdict", () => {
  it("a live head's turns with a clean texture pass", () => {
    const verdict = livenessVerdict(["turn_left", "turn_right"], liveTurns());
    expect(verdict.status).toBe("passed");
    expect(verdict.data.presentation_attack).toMatchObject({ suspected: false, reasons: [] });
    expect(verdict.data.presentation_attack.signals.turns).toHaveLength(2);
  });

  it("turns that move like a tilted sheet are spoof_suspected, scored 0, and the message names no threshold", () => {
    const sheet = flatten(HEAD);
    const frames = [frame({ landmarks: project(sheet, 0) }), frame({ yaw: -22, landmarks: project(sheet, -30) }), frame({ landmarks: project(sheet, 0) }), frame({ yaw: 22, landmarks: project(sheet, 30) }), frame({ landmarks: project(sheet, 0) })];
    const verdict = livenessVerdict(["turn_left", "turn_right"], frames);
    expect(verdict.status).toBe("failed");
    expect(verdict.error?.code).toBe("spoof_suspected");
    expect(verdict.error?.message).not.toMatch(/\d/);
    expect(verdict.live_score).toBe(0);
    expect(verdict.data.presentation_attack.reasons).toEqual(["flat_turn"]);
  });

  it("a screen or halftone texture in two frames is spoof_suspected; in one frame it is not", () => {
    const two = liveTurns();
    two[1]!.faces[0]!.texture!.moire = PAD_DEFAULTS.texture_peak + 0.5;
    two[3]!.faces[0]!.texture!.moire = PAD_DEFAULTS.texture_peak;
    expect(livenessVerdict(["turn_left", "turn_right"], two)).toMatchObject({ status: "failed", error: { code: "spoof_suspected" } });
    const one = liveTurns();
    one[1]!.faces[0]!.texture!.moire = PAD_DEFAULTS.texture_peak + 2;
    expect(livenessVerdict(["turn_left", "turn_right"], one).status).toBe("passed");
  });

  it("glare over the face in two frames is spoof_suspected", () => {
    const frames = liveTurns();
    frames[0]!.faces[0]!.texture!.glare = 0.35;
    frames[2]!.faces[0]!.texture!.glare = 0.3;
    const verdict = livenessVerdict(["turn_left", "turn_right"], frames);
    expect(verdict.error?.code).toBe("spoof_suspected");
    expect(verdict.data.presentation_attack.reasons).toEqual(["glare"]);
  });

  it("signals that cannot be measured (no mesh, face too small) accuse nobody", () => {
    const verdict = presentationAttackVerdict([null, face({ landmarks: null, moire: null, glare: null })], 1, [{ frame: 1, yawChangeDeg: 20 }]);
    expect(verdict).toMatchObject({ suspected: false, reasons: [] });
    expect(verdict.signals.turns[0]!.residual).toBeNull();
  });

  it("a photo held still fails the challenge itself (no turn), whatever its texture", () => {
    const still = Array.from({ length: 5 }, () => frame({ landmarks: project(HEAD, 0) }));
    expect(livenessVerdict(["turn_left", "turn_right"], still).error?.code).toBe("action_not_detected");
  });
});
