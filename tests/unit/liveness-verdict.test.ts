import { describe, expect, it } from "vitest";
import { LIVENESS_DEFAULTS, livenessVerdict, type FrameFaces } from "@/lib/liveness/liveness-verdict";
import type { LivenessAction } from "@/lib/workflows/settings";

/**
 * The liveness verdict on synthetic frame analyses: one face per frame with
 * a yaw (degrees), eye openness and an embedding. Person P and person Q have
 * orthogonal-ish embeddings; `similar(s)` is P's embedding at cosine s.
 */
const DIM = 8;
const basis = (i: number) => Array.from({ length: DIM }, (_, k) => (k === i ? 1 : 0));
const P = basis(0);
const Q = basis(1);
/** An embedding with cosine similarity `s` to P. */
const similar = (s: number) => P.map((x, k) => s * x + Math.sqrt(1 - s * s) * Q[k]!);

type FaceSpec = { yaw?: number; ear?: number; embedding?: number[]; box?: number; boxScore?: number };

const rad = (deg: number) => (deg * Math.PI) / 180;

function face(spec: FaceSpec = {}): FrameFaces["faces"][number] {
  const side = spec.box ?? 200;
  return {
    box: [10, 10, side, side],
    score: 1,
    box_score: spec.boxScore ?? 0.9,
    face_score: 1,
    embedding: spec.embedding ?? P,
    rotation: { yaw: rad(spec.yaw ?? 0), pitch: rad(5), roll: 0 },
    ear: { left: spec.ear ?? 0.38, right: spec.ear ?? 0.4 },
    antispoof: 0.55,
    live: 0.98,
    landmarks: null,
    texture: null,
  };
}

function frame(...faces: FaceSpec[]): FrameFaces {
  return { faces: faces.map(face), width: 320, height: 320, ms: 100, model: "human@test" };
}

/** Frames from a list of yaws (degrees), one face of person P each. */
const yaws = (...values: number[]) => values.map((yaw) => frame({ yaw }));

const LEFT_RIGHT = yaws(1, -24, 2, 21, 1);

describe("livenessVerdict: turns in order", () => {
  it("passes turn_left then turn_right when the frames turn left, come back, turn right", () => {
    const v = livenessVerdict(["turn_left", "turn_right"], LEFT_RIGHT);
    expect(v.status).toBe("passed");
    expect(v.error).toBeNull();
    expect(v.live_score).toBeGreaterThanOrEqual(0.5);
    expect(v.live_score).toBeLessThanOrEqual(1);
    expect(v.data.actions_detected).toEqual([
      expect.objectContaining({ action: "turn_left", detected: true, frame: 1, value: -25 }),
      expect.objectContaining({ action: "turn_right", detected: true, frame: 3, value: 20 }),
    ]);
    expect(v.data.baseline_frame).toBe(0);
    expect(v.data.yaw_deg).toEqual([1, -24, 2, 21, 1]);
    expect(v.data.frames).toBe(5);
    expect(v.data.faces_per_frame).toEqual([1, 1, 1, 1, 1]);
    expect(v.data.same_person_min_similarity).toBe(1);
    expect(v.data.best_frame).toBe(0);
    expect(v.data.best_face).toBe(0);
    expect(v.data.model_scores).toEqual({ deciding: false, antispoof: [0.55, 0.55, 0.55, 0.55, 0.55], live: [0.98, 0.98, 0.98, 0.98, 0.98] });
  });

  it("the same frames fail the reversed challenge: order matters", () => {
    const v = livenessVerdict(["turn_right", "turn_left"], LEFT_RIGHT);
    expect(v.status).toBe("failed");
    expect(v.error?.code).toBe("action_not_detected");
    expect(v.error?.message).toMatch(/Action 2 of 2 \(turn_left\)/);
    expect(v.live_score).toBeLessThan(0.5);
    expect(v.data.actions_detected[0]).toMatchObject({ action: "turn_right", detected: true, frame: 3 });
    expect(v.data.actions_detected[1]).toMatchObject({ action: "turn_left", detected: false });
  });

  it("a missing action fails, naming it", () => {
    const v = livenessVerdict(["turn_left", "turn_right"], yaws(0, -25, 0, 0, 0));
    expect(v.status).toBe("failed");
    expect(v.error).toEqual({ code: "action_not_detected", message: expect.stringContaining("turn_right") });
    expect(v.data.actions_detected[1]).toMatchObject({ detected: false, value: 0 });
  });

  it("a head that never moves fails any turn, with its best attempt recorded", () => {
    const v = livenessVerdict(["turn_right"], yaws(0, 3, 5, 2));
    expect(v.status).toBe("failed");
    expect(v.data.actions_detected[0]).toMatchObject({ detected: false, frame: 2, value: 5 });
    expect(v.live_score).toBeCloseTo((0.5 * 5) / 12, 2);
  });

  it("yaw is measured from the frontal-most frame (smallest |yaw|), not from zero", () => {
    // A person whose frontal pose reads -8 deg: a turn to +16 is a 24 deg turn right.
    expect(livenessVerdict(["turn_right"], yaws(-9, 16, -8)).data.actions_detected[0]).toMatchObject({ detected: true, value: 24 });
    // Looking left of that biased frontal pose by 12 deg or more is a left turn...
    expect(livenessVerdict(["turn_left"], yaws(-9, -21, -8)).status).toBe("passed");
    // ...a smaller wobble is not.
    expect(livenessVerdict(["turn_left"], yaws(-9, -15, -8)).status).toBe("failed");
    // Limitation: a turn that ends nearer 0 than the biased frontal pose becomes the baseline.
    expect(livenessVerdict(["turn_right"], yaws(-9, 6, -8)).data.baseline_frame).toBe(1);
  });

  it("turn_left is a NEGATIVE yaw change (nose towards the image's right in a raw camera frame)", () => {
    expect(livenessVerdict(["turn_left"], yaws(0, -15, 0)).status).toBe("passed");
    expect(livenessVerdict(["turn_left"], yaws(0, 15, 0)).status).toBe("failed");
    expect(livenessVerdict(["turn_right"], yaws(0, 15, 0)).status).toBe("passed");
  });

  it("a held turn counts once: a repeated turn needs the head back at the centre in between", () => {
    expect(livenessVerdict(["turn_left", "blink", "turn_left"], [frame({ yaw: 0 }), frame({ yaw: -20 }), frame({ yaw: -22 }), frame({ yaw: -20 })]).status).toBe("failed");
    expect(livenessVerdict(["turn_left", "turn_left"], yaws(0, -20, -22, -20)).status).toBe("failed");
    expect(livenessVerdict(["turn_left", "turn_left"], yaws(0, -20, 1, -20)).status).toBe("passed");
    // Half-way back (8 deg from centre, more than 6) is not back.
    expect(livenessVerdict(["turn_left", "turn_left"], yaws(0, -20, -8, -20)).status).toBe("failed");
  });

  it("opposite turns may follow each other directly (swinging across crosses the centre)", () => {
    const v = livenessVerdict(["turn_left", "turn_right"], yaws(0, -20, 18));
    expect(v.status).toBe("passed");
    expect(v.data.actions_detected.map((a) => a.frame)).toEqual([1, 2]);
  });

  it("the turn's frame is the peak of the excursion", () => {
    const v = livenessVerdict(["turn_right"], yaws(0, 14, 26, 18, 0));
    expect(v.data.actions_detected[0]).toMatchObject({ frame: 2, value: 26, score: 1 });
  });

  it("thresholds can be overridden", () => {
    expect(livenessVerdict(["turn_right"], yaws(0, 10, 0)).status).toBe("failed");
    expect(livenessVerdict(["turn_right"], yaws(0, 10, 0), { turn_threshold_deg: 8 }).status).toBe("passed");
  });
});

describe("livenessVerdict: blink", () => {
  const eyes = (...ears: number[]) => ears.map((ear) => frame({ ear }));

  it("a dip below 0.6 of the open eyes that reopens is a blink", () => {
    const v = livenessVerdict(["blink"], eyes(0.4, 0.38, 0.08, 0.39, 0.4));
    expect(v.status).toBe("passed");
    expect(v.data.actions_detected[0]).toMatchObject({ action: "blink", detected: true, frame: 2, reopened_frame: 3 });
    expect(v.data.actions_detected[0]!.value).toBeCloseTo(0.08 / 0.4, 1);
    expect(v.data.eye_open_baseline).toBe(0.4);
    // The closed-eye frame is not the one kept for face match.
    expect(v.data.best_frame).not.toBe(2);
  });

  it("eyes that close but never reopen are no blink", () => {
    const v = livenessVerdict(["blink"], eyes(0.4, 0.4, 0.4, 0.1, 0.09));
    expect(v.status).toBe("failed");
    expect(v.data.actions_detected[0]).toMatchObject({ detected: false, frame: 4 });
  });

  it("a shallow dip (squint) is no blink", () => {
    expect(livenessVerdict(["blink"], eyes(0.4, 0.4, 0.3, 0.4, 0.4)).status).toBe("failed");
  });

  it("blink and turns in order", () => {
    const frames = [frame({ yaw: 0 }), frame({ yaw: 0, ear: 0.07 }), frame({ yaw: 1 }), frame({ yaw: -22 }), frame({ yaw: 0 })];
    expect(livenessVerdict(["blink", "turn_left"], frames).status).toBe("passed");
    expect(livenessVerdict(["turn_left", "blink"], frames).status).toBe("failed");
  });

  it("eye openness on a turned head is not read as a blink", () => {
    const frames = [frame({ yaw: 0 }), frame({ yaw: 25, ear: 0.1 }), frame({ yaw: 0 })];
    expect(livenessVerdict(["blink"], frames).status).toBe("failed");
  });
});

describe("livenessVerdict: faces and identity", () => {
  it("two faces in a frame fail, naming the frame", () => {
    const frames = [...yaws(0, -20), frame({ yaw: 0 }, { yaw: 5, embedding: Q, box: 180 }), ...yaws(20, 0)];
    const v = livenessVerdict(["turn_left", "turn_right"], frames);
    expect(v.status).toBe("failed");
    expect(v.error).toEqual({ code: "multiple_faces", message: expect.stringContaining("frame 3 of 5") });
    expect(v.live_score).toBe(0);
    expect(v.data.faces_per_frame).toEqual([1, 1, 2, 1, 1]);
  });

  it("a weak extra detection (cut-off face, false positive) is not a second person", () => {
    const frames = [...yaws(0, -20), frame({ yaw: 0 }, { yaw: 40, embedding: Q, box: 60, boxScore: 0.4 }), ...yaws(20, 0)];
    const v = livenessVerdict(["turn_left", "turn_right"], frames);
    expect(v.status).toBe("passed");
    expect(v.data.faces_per_frame).toEqual([1, 1, 1, 1, 1]);
    expect(v.data.detections_per_frame).toEqual([1, 1, 2, 1, 1]);
  });

  it("the person's face is the largest detection, wherever it is listed", () => {
    const frames = [frame({ yaw: 0 }), frame({ yaw: 40, embedding: Q, box: 60, boxScore: 0.4 }, { yaw: -22 }), frame({ yaw: 0 })];
    const v = livenessVerdict(["turn_left"], frames);
    expect(v.status).toBe("passed");
    expect(v.data.yaw_deg).toEqual([0, -22, 0]);
  });

  it("a frame without a face fails, naming the frame", () => {
    const frames = [...yaws(0, -20), frame(), ...yaws(0)];
    const v = livenessVerdict(["turn_left"], frames);
    expect(v.status).toBe("failed");
    expect(v.error).toEqual({ code: "no_face", message: "No face in frame 3 of 4" });
    expect(v.live_score).toBe(0);
  });

  it("a change of person mid-burst fails", () => {
    const frames = [frame({ yaw: 0 }), frame({ yaw: -22 }), frame({ yaw: 0 }), frame({ yaw: 20, embedding: similar(0.5) }), frame({ yaw: 0, embedding: similar(0.5) })];
    const v = livenessVerdict(["turn_left", "turn_right"], frames);
    expect(v.status).toBe("failed");
    expect(v.error?.code).toBe("different_person");
    expect(v.error?.message).toMatch(/frame 4 of 5 .*similarity 0\.5 < 0\.62/);
    expect(v.data.same_person_min_similarity).toBe(0.5);
    expect(v.live_score).toBeLessThan(0.5);
  });

  it("similarity at the threshold is the same person; identity drives live_score", () => {
    const at = LIVENESS_DEFAULTS.same_person_threshold;
    const frames = [frame({ yaw: 0 }), frame({ yaw: -30, embedding: similar(at + 1e-6) }), frame({ yaw: 0 })];
    const v = livenessVerdict(["turn_left"], frames);
    expect(v.status).toBe("passed");
    expect(v.live_score).toBe(0.5);
  });

  it("the reference face for identity is the frontal-most frame's", () => {
    // Frame 0 is turned; the frontal frame 1 is the baseline.
    const v = livenessVerdict(["turn_right"], [frame({ yaw: 20 }), frame({ yaw: 0 }), frame({ yaw: 2 })]);
    expect(v.data.baseline_frame).toBe(1);
  });

  it("no frames fails", () => {
    const v = livenessVerdict(["blink"], []);
    expect(v).toMatchObject({ status: "failed", live_score: 0, error: { code: "no_frames" } });
  });

  it("a face without an embedding or head pose cannot be judged", () => {
    const bad = frame({ yaw: 0 });
    bad.faces[0]!.embedding = null;
    const v = livenessVerdict(["turn_left"], [frame({ yaw: 0 }), frame({ yaw: -20 }), bad]);
    expect(v.error?.code).toBe("face_not_measurable");
  });

  it("live_score is in [0, 1] and at least 0.5 exactly when passed", () => {
    const cases: Array<[LivenessAction[], FrameFaces[]]> = [
      [["turn_left", "turn_right"], LEFT_RIGHT],
      [["turn_right", "turn_left"], LEFT_RIGHT],
      [["turn_left"], yaws(0, -12, 0)],
      [["turn_left"], yaws(0, -11.9, 0)],
      [["turn_right"], yaws(0, 40, 0)],
      [["blink"], yaws(0, 0, 0)],
    ];
    for (const [actions, frames] of cases) {
      const v = livenessVerdict(actions, frames);
      expect(v.live_score).toBeGreaterThanOrEqual(0);
      expect(v.live_score).toBeLessThanOrEqual(1);
      expect(v.live_score >= 0.5).toBe(v.status === "passed");
      expect(v.data.live_score).toBe(v.live_score);
    }
  });
});

describe("livenessVerdict: looks and smiles (synthetic), failing safe", () => {
  const posed = (pose: { yaw?: number; pitch?: number; mouth?: number | null }) => {
    const f = frame({ yaw: pose.yaw ?? 0 });
    const face = f.faces[0]!;
    face.rotation = { yaw: rad(pose.yaw ?? 0), pitch: rad(pose.pitch ?? 5), roll: 0 };
    face.mouth = pose.mouth === null ? null : { width: pose.mouth ?? 0.6, lift: 0.02 };
    return f;
  };

  it("a look up then a look down: pitch down then up from the resting pitch, in that order only", () => {
    const frames = [posed({}), posed({ pitch: -8 }), posed({}), posed({ pitch: 16 }), posed({})];
    expect(livenessVerdict(["look_up", "look_down"], frames).status).toBe("passed");
    expect(livenessVerdict(["look_down", "look_up"], frames).error?.code).toBe("action_not_detected");
  });

  it("a pitch change on a turned frame is no look (pitch moves with yaw)", () => {
    const frames = [posed({}), posed({ yaw: 25, pitch: -8 }), posed({})];
    expect(livenessVerdict(["look_up"], frames).error?.code).toBe("action_not_detected");
    expect(livenessVerdict(["turn_right"], frames).status).toBe("passed");
  });

  it("a smile is a mouth at least 1.12 times its resting width, then relaxed", () => {
    expect(livenessVerdict(["smile"], [posed({}), posed({ mouth: 0.72 }), posed({})]).status).toBe("passed");
    expect(livenessVerdict(["smile"], [posed({}), posed({ mouth: 0.65 }), posed({})]).error?.code).toBe("action_not_detected");
  });

  it("frames without a measured mouth never pass a smile: action_not_detected (retry), not a silent pass", () => {
    const v = livenessVerdict(["smile"], [posed({ mouth: null }), posed({ mouth: null }), posed({ mouth: null })]);
    expect(v.error?.code).toBe("action_not_detected");
    expect(v.data.actions_detected[0]).toMatchObject({ action: "smile", detected: false, value: null, score: 0 });
  });

  it("looking down is no blink: eyes that narrow on a looking-down frame are not compared with the open baseline", () => {
    const frames = [posed({}), posed({ pitch: 20 }), posed({})];
    frames[1]!.faces[0]!.ear = { left: 0.1, right: 0.1 };
    expect(livenessVerdict(["blink"], frames).error?.code).toBe("action_not_detected");
    expect(livenessVerdict(["look_down"], frames).status).toBe("passed");
  });
});
