import type { LivenessAction } from "@/lib/workflows/settings";
import { presentationAttackVerdict, type PadOptions, type PadVerdict } from "@/lib/liveness/presentation-attack";
import { cosineSimilarity, type FaceAnalysis } from "@/lib/vision/pool";

/**
 * Liveness verdict of an active challenge: the server asked for a sequence of
 * actions (`turn_left`, `turn_right`, `blink`), the browser sent a burst of
 * frames while the person performed them, and each frame has been analysed
 * (lib/vision/pool.ts `analyseFaces`). Pure function, no I/O.
 *
 * Passes only if
 *   1. every frame shows exactly one face,
 *   2. every frame shows the same person as the frontal-most frame
 *      (embedding cosine similarity), and
 *   3. the requested motions are measured IN ORDER over the frames, and
 *   4. nothing says the face is a picture (lib/liveness/presentation-attack.ts:
 *      a turn that moves like a flat sheet, a screen's or print's texture,
 *      glare), else `spoof_suspected`, reported before `different_person`
 *      and `action_not_detected` (the more specific finding).
 * The shipped antispoof / liveness model scores are recorded in `data` but
 * never decide (they did not separate the generated attacks from live faces).
 *
 * YAW SIGN CONVENTION (measured, @vladmandic/human 3.3.6 `face.rotation.angle.yaw`):
 * yaw < 0 is the person's head turned to THEIR OWN LEFT in a raw, unmirrored
 * camera image (their nose points to the image's right); yaw > 0 is a turn to
 * their right (nose points to the image's left). Evidence, grid cells of
 * human's assets/screenshot-facematch.jpg (r = row, c = column, 256 px crops):
 *   - r0c14, person A turned to his left, nose towards the image's right: yaw -22.9 deg;
 *     its mirror (sharp .flop()): +21.5 deg.
 *   - r3c11, a woman in near profile, nose towards the image's left: +31.2 deg; mirror -29.5.
 *   - r5c3 (nose towards the image's right) -19.0, r4c0 and r2c8 (nose towards the
 *     image's left) +19.6 and +20.6; Debian opencv-doc messi5.jpg, Messi's head
 *     turned with his nose towards the image's right: -16.2 deg, mirrored +20.3.
 *   - Frontal faces read near 0 (grace_hopper_512x512.jpg -1.9, astronaut.png
 *     -0.3), and a mirror flips the sign of the yaw in 102 of the 103 grid
 *     cells with a face in both (the exception, r2c12, reads -6.2 / -2.2).
 * So turn_left means yaw DEcreases from the baseline, turn_right increases.
 * The browser must send the raw camera frames: a front camera's preview is
 * usually shown mirrored (like a mirror, the head turns towards the screen's
 * left when the person turns left), but the frames sent must not be flipped.
 * A client that sends mirrored frames inverts every turn: turn_left would be
 * measured as turn_right and the challenge fails.
 */
/** One analysed frame of the burst. */
export type FrameFaces = FaceAnalysis;
type Face = FaceAnalysis["faces"][number];

export type LivenessOptions = {
  /**
   * Yaw change from the baseline frame, in degrees, that counts as a head turn.
   * Clearly turned heads measured 19-31 deg (r0c14 -22.9, its mirror +21.5,
   * r3c11 +31.2, r5c3 -19.0; human's yaw reads lower than the visible angle:
   * r3c11 looks ~45 deg turned); one frontal photo with camera jitter varied by
   * 0.7 deg (fixture a-still: 1.3 to 2.0). 12 deg is about half a clear turn.
   */
  turn_threshold_deg: number;
  /**
   * Before a later action, a turn must come back within this fraction of the
   * turn threshold of the baseline yaw (12 * 0.5 = 6 deg): the head returned
   * to the centre. Not needed between opposite turns (left then right crosses
   * the centre anyway).
   */
  return_fraction: number;
  /**
   * A blink: eye openness (the smaller eye aspect ratio of the two eyes) below
   * this fraction of the open-eye baseline. Open eyes measured 0.3-0.47, closed
   * ~0.08 (the reference set of the face evaluation); one open-eyed photo with camera jitter varied by at most
   * 5% (fixture a-still: 0.35-0.39).
   */
  blink_closed_ratio: number;
  /** After the dip the eyes must reopen to this fraction of the open baseline. */
  blink_reopen_ratio: number;
  /**
   * Cosine similarity every frame's face needs against the baseline frame's
   * face. Measured: frames of one photo with camera jitter 0.94-0.99; person A
   * frontal vs A turned 22 deg, from DIFFERENT photos (the pessimistic case for
   * one burst) 0.655 and 0.709; different people: at most 0.609 over the 2,244
   * certainly-different pairs of `npm run eval:faces`, 0.63 in the reference set,
   * A vs B 0.40-0.42. 0.62 sits above every different-person pair of our set
   * (at the reference set's maximum within 0.01) and below the lowest same-person value
   * measured for a turned head.
   */
  same_person_threshold: number;
  /**
   * A detection besides the largest face counts as a second face only from
   * this detector box score. Over 216 crops (108 grid cells and mirrors) the
   * 16 extra detections (faces cut by the crop edge, false positives) scored
   * 0.31-0.56, every largest face 0.51 or more; two whole faces side by side
   * (fixture two-faces) scored 0.75 and 0.80.
   */
  extra_face_min_box_score: number;
};

export const LIVENESS_DEFAULTS: Readonly<LivenessOptions> = Object.freeze({
  turn_threshold_deg: 12,
  return_fraction: 0.5,
  blink_closed_ratio: 0.6,
  blink_reopen_ratio: 0.8,
  same_person_threshold: 0.62,
  extra_face_min_box_score: 0.6,
});

/** Eye openness relative to the open baseline at which a blink scores 1 (0.08 closed / 0.4 open). */
const FULLY_CLOSED_RATIO = 0.2;
/** Similarity at which identity evidence scores 1 (frames of one photo measured 0.94-0.99). */
const CERTAIN_SAME_PERSON = 0.9;

export type ActionEvidence = {
  action: LivenessAction;
  detected: boolean;
  /** Frame index (0-based) where the motion was measured: the turn's peak, the blink's closed eyes. */
  frame: number | null;
  /** Turn: yaw change from the baseline in degrees (signed). Blink: openness / open baseline. Best attempt when not detected. */
  value: number | null;
  /** Blink only: the frame where the eyes were open again. */
  reopened_frame?: number | null;
  /** Strength of this evidence, 0-1: 0.5 exactly at the threshold, 1 at twice the needed motion. */
  score: number;
};

export type LivenessData = {
  live_score: number;
  actions: LivenessAction[];
  actions_detected: ActionEvidence[];
  frames: number;
  /** Faces counted per frame (the largest plus detections above `extra_face_min_box_score`). */
  faces_per_frame: number[];
  /** Raw detections per frame, including the weak ones not counted. */
  detections_per_frame: number[];
  /** The frontal-most frame: reference for yaw changes and identity. */
  baseline_frame: number | null;
  same_person_min_similarity: number | null;
  /** Per frame: similarity of its face to the baseline frame's face. */
  same_person_similarity: Array<number | null>;
  yaw_deg: Array<number | null>;
  pitch_deg: Array<number | null>;
  ear: Array<{ left: number | null; right: number | null } | null>;
  /** Open-eye baseline (upper quartile of per-frame openness over near-frontal frames). */
  eye_open_baseline: number | null;
  /** Most frontal, open-eyed, most confident single-face frame: the selfie for face match. */
  best_frame: number | null;
  /** Index of the person's face within `frames[best_frame].faces` (the largest detection). */
  best_face: number | null;
  /** Shipped model scores, recorded for reviewers; they do not decide. */
  model_scores: { deciding: false; antispoof: Array<number | null>; live: Array<number | null> };
  /** The presentation-attack signals and what they concluded (evidence for reviewers; never sent to the person). */
  presentation_attack: PadVerdict;
  thresholds: LivenessOptions;
};

export type LivenessVerdict = {
  status: "passed" | "failed";
  /** In [0, 1]; at least 0.5 exactly when passed (see `liveScore`). */
  live_score: number;
  data: LivenessData;
  error: { code: string; message: string } | null;
};

// ---------------------------------------------------------------------------
// Per-frame measurements

type FrameMeasure = {
  face: Face | null;
  faceIndex: number | null;
  counted: number;
  yaw: number | null;
  pitch: number | null;
  /** Smaller eye aspect ratio of the two eyes (either one if the other is missing). */
  openness: number | null;
};

const toDegrees = (radians: number) => (radians * 180) / Math.PI;
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
const roundOrNull = (x: number | null, digits: number) => (x === null ? null : round(x, digits));
const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
const area = (f: Face) => Math.max(0, f.box[2]) * Math.max(0, f.box[3]);

/** The person's face is the largest detection; weak extra detections are not counted as people. */
function measureFrame(frame: FrameFaces, options: LivenessOptions): FrameMeasure {
  if (frame.faces.length === 0) return { face: null, faceIndex: null, counted: 0, yaw: null, pitch: null, openness: null };
  let faceIndex = 0;
  frame.faces.forEach((f, i) => {
    if (area(f) > area(frame.faces[faceIndex]!)) faceIndex = i;
  });
  const face = frame.faces[faceIndex]!;
  const counted = 1 + frame.faces.filter((f, i) => i !== faceIndex && f.box_score >= options.extra_face_min_box_score).length;
  const eyes = [face.ear.left, face.ear.right].filter((e): e is number => e !== null && Number.isFinite(e));
  return {
    face,
    faceIndex,
    counted,
    yaw: face.rotation ? toDegrees(face.rotation.yaw) : null,
    pitch: face.rotation ? toDegrees(face.rotation.pitch) : null,
    openness: eyes.length ? Math.min(...eyes) : null,
  };
}

/** The frontal-most frame (smallest |yaw|, first on ties) among frames with a measured face. */
function frontalMostFrame(measures: FrameMeasure[]): number | null {
  let best: number | null = null;
  measures.forEach((m, i) => {
    if (m.yaw === null || !m.face?.embedding) return;
    if (best === null || Math.abs(m.yaw) < Math.abs(measures[best]!.yaw!)) best = i;
  });
  return best;
}

/** Linear-interpolated quantile of a non-empty list. */
function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

// ---------------------------------------------------------------------------
// Motions, in order

type Motion = {
  /** Yaw change from the baseline per frame (null: no measured face). */
  delta: Array<number | null>;
  openness: Array<number | null>;
  /** Frames near the baseline pose, where eye openness is comparable. */
  nearFrontal: boolean[];
  openBaseline: number | null;
  options: LivenessOptions;
};

type Found = { evidence: ActionEvidence; nextStart: number; turnDirection: -1 | 1 | null };

function detectTurn(action: "turn_left" | "turn_right", start: number, m: Motion): Found {
  const direction = action === "turn_left" ? -1 : 1;
  const threshold = m.options.turn_threshold_deg;
  const returned = threshold * m.options.return_fraction;
  const n = m.delta.length;
  let bestValue: number | null = null;
  let bestFrame: number | null = null;
  for (let j = start; j < n; j++) {
    const d = m.delta[j];
    if (d === null || d === undefined) continue;
    if (bestValue === null || direction * d > direction * bestValue) {
      bestValue = d;
      bestFrame = j;
    }
    if (direction * d < threshold) continue;
    // Detected: follow the excursion to its peak, then to where the head came back.
    let peak = j;
    let k = j + 1;
    for (; k < n; k++) {
      const dk = m.delta[k];
      if (dk === null || dk === undefined || direction * dk < threshold) break;
      if (direction * dk > direction * m.delta[peak]!) peak = k;
    }
    let back = n;
    for (let r = peak + 1; r < n; r++) {
      const dr = m.delta[r];
      if (dr !== null && dr !== undefined && Math.abs(dr) <= returned) {
        back = r;
        break;
      }
    }
    const value = m.delta[peak]!;
    return {
      evidence: { action, detected: true, frame: peak, value: round(value, 1), score: round(clamp01((0.5 * direction * value) / threshold), 3) },
      nextStart: back,
      turnDirection: direction,
    };
  }
  return {
    evidence: {
      action,
      detected: false,
      frame: bestFrame,
      value: roundOrNull(bestValue, 1),
      score: bestValue === null ? 0 : round(Math.min(0.49, clamp01((0.5 * direction * bestValue) / threshold)), 3),
    },
    nextStart: n,
    turnDirection: null,
  };
}

function blinkScore(ratio: number, closedRatio: number): number {
  return clamp01(0.5 + (0.5 * (closedRatio - ratio)) / (closedRatio - FULLY_CLOSED_RATIO));
}

function detectBlink(start: number, m: Motion): Found {
  const n = m.delta.length;
  const open = m.openBaseline;
  const notFound = (frame: number | null, value: number | null, score: number): Found => ({
    evidence: { action: "blink", detected: false, frame, value: roundOrNull(value, 2), reopened_frame: null, score: round(Math.min(0.49, score), 3) },
    nextStart: n,
    turnDirection: null,
  });
  if (open === null || open <= 0) return notFound(null, null, 0);
  const ratioAt = (i: number) => (m.nearFrontal[i] && m.openness[i] !== null && m.openness[i] !== undefined ? m.openness[i]! / open : null);
  let deepest: number | null = null;
  for (let j = start; j < n; j++) {
    const ratio = ratioAt(j);
    if (ratio === null) continue;
    if (deepest === null || ratio < ratioAt(deepest)!) deepest = j;
    if (ratio > m.options.blink_closed_ratio) continue;
    // Eyes closed at j: the deepest closure before they reopen, and the reopening frame.
    let closed = j;
    for (let r = j + 1; r < n; r++) {
      const rr = ratioAt(r);
      if (rr === null) continue;
      if (rr >= m.options.blink_reopen_ratio) {
        const value = ratioAt(closed)!;
        return {
          evidence: { action: "blink", detected: true, frame: closed, value: round(value, 2), reopened_frame: r, score: round(blinkScore(value, m.options.blink_closed_ratio), 3) },
          nextStart: r,
          turnDirection: null,
        };
      }
      if (rr < ratioAt(closed)!) closed = r;
    }
    // Closed but never reopened within the burst.
    const value = ratioAt(closed)!;
    return notFound(closed, value, blinkScore(value, m.options.blink_closed_ratio));
  }
  return notFound(deepest, deepest === null ? null : ratioAt(deepest), deepest === null ? 0 : blinkScore(ratioAt(deepest)!, m.options.blink_closed_ratio));
}

/**
 * Each action is searched from where the previous one ended: after a turn,
 * from the frame where the head came back to the centre (or right after the
 * turn's peak when the next action is the opposite turn); after a blink, from
 * the frame where the eyes reopened.
 */
function detectActionsInOrder(actions: LivenessAction[], m: Motion): ActionEvidence[] {
  const evidence: ActionEvidence[] = [];
  let start = 0;
  let previous: Found | null = null;
  for (const action of actions) {
    if (previous && !previous.evidence.detected) {
      evidence.push({ action, detected: false, frame: null, value: null, score: 0 });
      continue;
    }
    let from = start;
    if (previous?.turnDirection && action !== "blink") {
      const direction = action === "turn_left" ? -1 : 1;
      if (direction !== previous.turnDirection) from = previous.evidence.frame! + 1;
    }
    const found = action === "blink" ? detectBlink(from, m) : detectTurn(action, from, m);
    evidence.push(found.evidence);
    start = found.nextStart;
    previous = found;
  }
  return evidence;
}

// ---------------------------------------------------------------------------
// Best frame, score, verdict

/** Most frontal (|yaw| + |pitch|), eyes open, single face; ties: higher face score, then larger face. */
function bestFrame(measures: FrameMeasure[], openBaseline: number | null, options: LivenessOptions): number | null {
  const eyesOpen = (m: FrameMeasure) => openBaseline === null || m.openness === null || m.openness >= options.blink_reopen_ratio * openBaseline;
  const candidates = measures
    .map((m, i) => ({ m, i }))
    .filter(({ m }) => m.face?.embedding && m.counted === 1 && m.yaw !== null);
  const pool = candidates.some(({ m }) => eyesOpen(m)) ? candidates.filter(({ m }) => eyesOpen(m)) : candidates;
  let best: { m: FrameMeasure; i: number } | null = null;
  for (const c of pool) {
    if (!best) {
      best = c;
      continue;
    }
    const pose = (x: FrameMeasure) => Math.abs(x.yaw!) + Math.abs(x.pitch ?? 0);
    const better =
      pose(c.m) < pose(best.m) - 1e-9 ||
      (Math.abs(pose(c.m) - pose(best.m)) <= 1e-9 &&
        (c.m.face!.score > best.m.face!.score || (c.m.face!.score === best.m.face!.score && area(c.m.face!) > area(best.m.face!))));
    if (better) best = c;
  }
  return best?.i ?? null;
}

/**
 * live_score: the weakest evidence (min), each scored 0-1 with 0.5 exactly at
 * its threshold: identity 0.5 at `same_person_threshold` rising to 1 at 0.9;
 * a turn 0.5 at `turn_threshold_deg` rising to 1 at twice that; a blink 0.5 at
 * `blink_closed_ratio` rising to 1 at 0.2 (eyes fully closed); a frame without
 * exactly one face scores 0. A failed verdict is capped at 0.49, so
 * live_score >= 0.5 exactly when the verdict passed.
 */
function liveScore(scores: number[], passed: boolean): number {
  const weakest = scores.length ? Math.min(...scores) : 0;
  return passed ? round(weakest, 3) : Math.min(0.49, round(weakest, 3));
}

function frameLabel(i: number, n: number) {
  return `frame ${i + 1} of ${n}`;
}

export function livenessVerdict(actions: LivenessAction[], frames: FrameFaces[], options?: Partial<LivenessOptions>, padOptions?: Partial<PadOptions>): LivenessVerdict {
  const o: LivenessOptions = { ...LIVENESS_DEFAULTS, ...options };
  const n = frames.length;
  const measures = frames.map((f) => measureFrame(f, o));
  const baseline = frontalMostFrame(measures);
  const baseYaw = baseline === null ? null : measures[baseline]!.yaw!;
  const baseEmbedding = baseline === null ? null : measures[baseline]!.face!.embedding!;

  const similarity = measures.map((m) => (baseEmbedding && m.face?.embedding ? cosineSimilarity(baseEmbedding, m.face.embedding) : null));
  const measuredSimilarities = similarity.filter((s): s is number => s !== null);
  const minSimilarity = measuredSimilarities.length ? Math.min(...measuredSimilarities) : null;

  const delta = measures.map((m) => (m.yaw === null || baseYaw === null ? null : m.yaw - baseYaw));
  const nearFrontal = delta.map((d) => d !== null && Math.abs(d) < o.turn_threshold_deg);
  const frontalOpenness = measures.map((m, i) => (nearFrontal[i] ? m.openness : null)).filter((x): x is number => x !== null);
  const openBaseline = frontalOpenness.length ? quantile(frontalOpenness, 0.75) : null;
  const motion: Motion = { delta, openness: measures.map((m) => m.openness), nearFrontal, openBaseline, options: o };
  const detected = baseline === null ? [] : detectActionsInOrder(actions, motion);
  const best = bestFrame(measures, openBaseline, o);
  const turns = detected.filter((d) => d.detected && d.action !== "blink" && d.frame !== null && d.value !== null).map((d) => ({ frame: d.frame!, yawChangeDeg: d.value! }));
  const pad = presentationAttackVerdict(
    measures.map((m) => m.face),
    baseline,
    turns,
    padOptions,
  );

  // The first rule broken, in the order the spec lists them.
  let error: LivenessVerdict["error"] = null;
  const noFace = measures.findIndex((m) => m.counted === 0);
  const manyFaces = measures.findIndex((m) => m.counted > 1);
  const unmeasured = measures.findIndex((m) => m.face && (!m.face.embedding || m.yaw === null));
  const otherPerson = similarity.findIndex((s) => s !== null && s < o.same_person_threshold);
  const missing = detected.find((d) => !d.detected);
  const firstFaceProblem = [noFace, manyFaces].filter((i) => i >= 0).sort((a, b) => a - b)[0];
  if (n === 0) {
    error = { code: "no_frames", message: "The burst has no frames" };
  } else if (firstFaceProblem !== undefined) {
    const i = firstFaceProblem;
    error =
      measures[i]!.counted === 0
        ? { code: "no_face", message: `No face in ${frameLabel(i, n)}` }
        : { code: "multiple_faces", message: `More than one face (${measures[i]!.counted}) in ${frameLabel(i, n)}: only the person verifying may be in view` };
  } else if (unmeasured >= 0) {
    error = { code: "face_not_measurable", message: `The face in ${frameLabel(unmeasured, n)} could not be measured (no head pose or embedding)` };
  } else if (pad.suspected) {
    // Which signal fired and its threshold stay in the evidence: the person is told no more than this.
    error = { code: "spoof_suspected", message: "The camera did not see a live person: what it saw looked like a photo or a screen" };
  } else if (otherPerson >= 0) {
    error = {
      code: "different_person",
      message: `The face in ${frameLabel(otherPerson, n)} is not the same person as in ${frameLabel(baseline!, n)} (similarity ${round(similarity[otherPerson]!, 3)} < ${o.same_person_threshold})`,
    };
  } else if (missing) {
    const position = detected.indexOf(missing) + 1;
    error = {
      code: "action_not_detected",
      message: `Action ${position} of ${actions.length} (${missing.action}) was not seen in order in the frames`,
    };
  }
  const passed = error === null;

  const identityScore =
    minSimilarity === null ? 0 : clamp01(0.5 + (0.5 * (minSimilarity - o.same_person_threshold)) / (CERTAIN_SAME_PERSON - o.same_person_threshold));
  const faceScore = noFace >= 0 || manyFaces >= 0 || unmeasured >= 0 || n === 0 ? 0 : 1;
  // A suspected attack scores 0: a graded score would show an attacker how close the picture came.
  const live_score = pad.suspected ? 0 : liveScore([faceScore, identityScore, ...detected.map((d) => d.score), ...(actions.length && !detected.length ? [0] : [])], passed);

  return {
    status: passed ? "passed" : "failed",
    live_score,
    data: {
      live_score,
      actions: [...actions],
      actions_detected: detected,
      frames: n,
      faces_per_frame: measures.map((m) => m.counted),
      detections_per_frame: frames.map((f) => f.faces.length),
      baseline_frame: baseline,
      same_person_min_similarity: roundOrNull(minSimilarity, 3),
      same_person_similarity: similarity.map((s) => roundOrNull(s, 3)),
      yaw_deg: measures.map((m) => roundOrNull(m.yaw, 1)),
      pitch_deg: measures.map((m) => roundOrNull(m.pitch, 1)),
      ear: measures.map((m) => (m.face ? { left: roundOrNull(m.face.ear.left, 2), right: roundOrNull(m.face.ear.right, 2) } : null)),
      eye_open_baseline: roundOrNull(openBaseline, 2),
      best_frame: best,
      best_face: best === null ? null : measures[best]!.faceIndex,
      model_scores: {
        deciding: false,
        antispoof: measures.map((m) => roundOrNull(m.face?.antispoof ?? null, 3)),
        live: measures.map((m) => roundOrNull(m.face?.live ?? null, 3)),
      },
      presentation_attack: pad,
      thresholds: o,
    },
    error,
  };
}
