import type { LivenessAction } from "@/lib/workflows/settings";
import { presentationAttackVerdict, type PadOptions, type PadVerdict } from "@/lib/liveness/presentation-attack";
import { cosineSimilarity, type FaceAnalysis } from "@/lib/vision/pool";

/**
 * Liveness verdict of an active challenge: the server asked for a sequence of
 * actions (`turn_left`, `turn_right`, `blink`, `look_up`, `look_down`,
 * `smile`), the browser sent a burst of
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
 *
 * PITCH SIGN CONVENTION (measured, same model, `face.rotation.angle.pitch`):
 * pitch < 0 is the head tilted BACK (chin up: the person looks up, the camera
 * sees the face from below); pitch > 0 is the head tilted forward (chin down:
 * looking down). A horizontal mirror keeps the sign (it is not a pitch).
 * Evidence, grid cells of the same screenshot, through the camera pipeline of
 * tests/fixtures/camera/generate-camera.ts (320 px on a 640x480 wall, JPEG 90):
 *   - chin up, face seen from below: r1c2 -12.2 (mirror -15.1), r3c4 -11.1
 *     (mirror -15.8), r4c15 -6.8 (mirror -7.0);
 *   - chin down, looking down or up from under the brows: r3c9 +20.2 (mirror
 *     +18.6), r1c4 +15.5 (mirror +23.3), r5c0 +17.8, r1c14 +17.4; person A
 *     chin down r0c17 +14.0, r0c3 +13.5;
 *   - person A facing the camera r0c5 (mirrored) +4.3 to +5.6 over five
 *     jittered camera pictures; most faces of the grid read +0 to +12 (photos
 *     are mostly taken from slightly above).
 * So look_up means pitch DEcreases from the burst's resting pitch, look_down
 * increases. Pitch moves with yaw too (person A turned 26 deg, r0c14
 * mirrored, reads 9.5 deg lower than his resting pose), so a look is only
 * measured on frames whose yaw stayed within the turn threshold.
 *
 * SMILE (measured, mouth shape from the 468-point mesh, `mouth.width` =
 * mouth-corner distance over outer-eye-corner distance): person A resting
 * r0c5 (mirrored) 0.592-0.620 over five jittered camera pictures; A smiling
 * with teeth r1c0 (mirrored) 0.725-0.785 (x1.17 to x1.31 of his resting
 * median), r0c7 0.743 (turned 20 deg); A's closed-mouth faces 0.56-0.67
 * (r0c2 0.568, r0c10 0.613, r0c12 0.56, r0c13 0.698 with a slight smile);
 * broad smiles of others r5c8 0.785, r5c17 0.765. The reference is the
 * burst's own resting mouth (median width over its near-frontal frames), so a
 * wide mouth at rest does not count as a smile.
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
   * Pitch change from the burst's resting pitch, in degrees, that counts as a
   * look up or down. Clear looks read 15-21 deg from a resting ~+5 (r1c2 -12
   * to -15, r3c4 -11 to -16, r3c9 +20, r1c4 +16 to +23; human's pitch reads
   * lower than the visible angle, like its yaw); person A's milder chin-down
   * photos +8 to +10 from his resting pose; one photo with camera jitter varied
   * by 1.3 deg (r0c5 mirrored 4.3-5.6). 7 deg is about half a clear look. The
   * return to the centre uses `return_fraction` of it.
   */
  pitch_threshold_deg: number;
  /**
   * A smile: mouth width at least this multiple of the resting mouth width
   * (median over the burst's near-frontal frames). Person A's teeth-showing
   * smile measured x1.17-1.31 of his resting mouth; one photo with camera
   * jitter varied by 5% (0.592-0.620). 1.12 is about half a clear smile's
   * widening, twice the jitter. The face relaxed again at
   * 1 + (ratio - 1) * `return_fraction`.
   */
  smile_width_ratio: number;
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
  pitch_threshold_deg: 7,
  smile_width_ratio: 1.12,
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
  /** Frame index (0-based) where the motion was measured: the turn's, look's or smile's peak, the blink's closed eyes. */
  frame: number | null;
  /**
   * Turn: yaw change from the baseline in degrees (signed). Look: pitch change
   * from the resting pitch in degrees (signed, negative up). Blink: openness /
   * open baseline. Smile: mouth width / resting mouth width. Best attempt when
   * not detected; null when no frame could measure it.
   */
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
  /** The burst's resting pitch (median over near-frontal frames): reference of look_up / look_down. */
  resting_pitch_deg: number | null;
  /** Per frame: mouth width over eye distance (the smile's measure), null when unmeasured. */
  mouth_width: Array<number | null>;
  /** The burst's resting mouth width (median over near-frontal frames): reference of smile. */
  resting_mouth_width: number | null;
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
  /** Mouth width over eye distance (workers/vision-worker.mjs `mouthShape`). */
  mouthWidth: number | null;
};

const toDegrees = (radians: number) => (radians * 180) / Math.PI;
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
const roundOrNull = (x: number | null, digits: number) => (x === null ? null : round(x, digits));
const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
const area = (f: Face) => Math.max(0, f.box[2]) * Math.max(0, f.box[3]);

/** The person's face is the largest detection; weak extra detections are not counted as people. */
function measureFrame(frame: FrameFaces, options: LivenessOptions): FrameMeasure {
  if (frame.faces.length === 0) return { face: null, faceIndex: null, counted: 0, yaw: null, pitch: null, openness: null, mouthWidth: null };
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
    mouthWidth: face.mouth && Number.isFinite(face.mouth.width) && face.mouth.width > 0 ? face.mouth.width : null,
  };
}

/**
 * The frontal-most frame among frames with a measured face: smallest |yaw|
 * plus distance from the burst's median pitch (a look up or down is not
 * frontal, however straight the yaw), first on ties.
 */
function frontalMostFrame(measures: FrameMeasure[]): number | null {
  const pitches = measures.filter((m) => m.yaw !== null && m.face?.embedding && m.pitch !== null).map((m) => m.pitch!);
  const medianPitch = pitches.length ? quantile(pitches, 0.5) : 0;
  const offFront = (m: FrameMeasure) => Math.abs(m.yaw!) + (m.pitch === null ? 0 : Math.abs(m.pitch - medianPitch));
  let best: number | null = null;
  measures.forEach((m, i) => {
    if (m.yaw === null || !m.face?.embedding) return;
    if (best === null || offFront(m) < offFront(measures[best]!)) best = i;
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
  /** Pitch change from the resting pitch per frame, only where the yaw stayed near the baseline (null otherwise). */
  pitchDelta: Array<number | null>;
  openness: Array<number | null>;
  /** Mouth width over the resting mouth width, only on near-neutral frames (null otherwise). */
  mouthRatio: Array<number | null>;
  /** Frames near the baseline pose (yaw and pitch), where eye openness and mouth width are comparable. */
  nearFrontal: boolean[];
  openBaseline: number | null;
  options: LivenessOptions;
};

/** A head movement away from the centre and back: on the yaw axis (turns) or the pitch axis (looks). */
type Axis = "yaw" | "pitch";
type Found = { evidence: ActionEvidence; nextStart: number; excursion: { axis: Axis; direction: -1 | 1 } | null };

const EXCURSIONS: Partial<Record<LivenessAction, { axis: Axis; direction: -1 | 1 }>> = {
  turn_left: { axis: "yaw", direction: -1 },
  turn_right: { axis: "yaw", direction: 1 },
  look_up: { axis: "pitch", direction: -1 },
  look_down: { axis: "pitch", direction: 1 },
};

/**
 * A turn or a look: the first frame from `start` where the signed change on
 * the action's axis reaches the threshold in the action's direction; then
 * its peak, and the frame where the head came back within `return_fraction`
 * of the threshold. Frames where the axis is unmeasured are skipped: none
 * measured means not detected (never a pass).
 */
function detectExcursion(action: LivenessAction, start: number, m: Motion): Found {
  const { axis, direction } = EXCURSIONS[action]!;
  const series = axis === "yaw" ? m.delta : m.pitchDelta;
  const threshold = axis === "yaw" ? m.options.turn_threshold_deg : m.options.pitch_threshold_deg;
  const returned = threshold * m.options.return_fraction;
  const n = series.length;
  let bestValue: number | null = null;
  let bestFrame: number | null = null;
  for (let j = start; j < n; j++) {
    const d = series[j];
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
      const dk = series[k];
      if (dk === null || dk === undefined || direction * dk < threshold) break;
      if (direction * dk > direction * series[peak]!) peak = k;
    }
    let back = n;
    for (let r = peak + 1; r < n; r++) {
      const dr = series[r];
      if (dr !== null && dr !== undefined && Math.abs(dr) <= returned) {
        back = r;
        break;
      }
    }
    const value = series[peak]!;
    return {
      evidence: { action, detected: true, frame: peak, value: round(value, 1), score: round(clamp01((0.5 * direction * value) / threshold), 3) },
      nextStart: back,
      excursion: { axis, direction },
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
    excursion: null,
  };
}

/**
 * A smile: from `start`, the first near-neutral frame whose mouth is at least
 * `smile_width_ratio` times the resting width; its widest frame; and the
 * frame where the face relaxed (the next action is searched from there).
 * Without a measured mouth on any frame: not detected.
 */
function detectSmile(start: number, m: Motion): Found {
  const needed = m.options.smile_width_ratio;
  const relaxed = 1 + (needed - 1) * m.options.return_fraction;
  const ratios = m.mouthRatio;
  const n = ratios.length;
  const score = (ratio: number) => clamp01(0.5 + (0.5 * (ratio - needed)) / (needed - 1));
  let widest: number | null = null;
  for (let j = start; j < n; j++) {
    const ratio = ratios[j];
    if (ratio === null || ratio === undefined) continue;
    if (widest === null || ratio > ratios[widest]!) widest = j;
    if (ratio < needed) continue;
    let peak = j;
    for (let k = j + 1; k < n && ratios[k] !== null && ratios[k]! >= needed; k++) if (ratios[k]! > ratios[peak]!) peak = k;
    let back = n;
    for (let r = peak + 1; r < n; r++) {
      if (ratios[r] !== null && ratios[r]! <= relaxed) {
        back = r;
        break;
      }
    }
    return { evidence: { action: "smile", detected: true, frame: peak, value: round(ratios[peak]!, 2), score: round(score(ratios[peak]!), 3) }, nextStart: back, excursion: null };
  }
  const value = widest === null ? null : ratios[widest]!;
  return {
    evidence: { action: "smile", detected: false, frame: widest, value: roundOrNull(value, 2), score: value === null ? 0 : round(Math.min(0.49, score(value)), 3) },
    nextStart: n,
    excursion: null,
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
    excursion: null,
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
          excursion: null,
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
 * Each action is searched from where the previous one ended: after a turn or
 * a look, from the frame where the head came back to the centre (or right
 * after its peak when the next action is the opposite movement on the same
 * axis: left then right, up then down); after a blink, from the frame where
 * the eyes reopened; after a smile, from the frame where the face relaxed.
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
    const excursion = EXCURSIONS[action];
    if (previous?.excursion && excursion && excursion.axis === previous.excursion.axis && excursion.direction !== previous.excursion.direction) {
      from = previous.evidence.frame! + 1;
    }
    const found = action === "blink" ? detectBlink(from, m) : action === "smile" ? detectSmile(from, m) : detectExcursion(action, from, m);
    evidence.push(found.evidence);
    start = found.nextStart;
    previous = found;
  }
  return evidence;
}

// ---------------------------------------------------------------------------
// Best frame, score, verdict

/**
 * Most frontal (|yaw| + distance from the resting pitch: a look up or down is
 * not the selfie), eyes open, single face; ties: higher face score, then
 * larger face.
 */
function bestFrame(measures: FrameMeasure[], openBaseline: number | null, restingPitch: number | null, options: LivenessOptions): number | null {
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
    const pose = (x: FrameMeasure) => Math.abs(x.yaw!) + Math.abs((x.pitch ?? 0) - (restingPitch ?? 0));
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
 * a turn 0.5 at `turn_threshold_deg` rising to 1 at twice that, a look the
 * same with `pitch_threshold_deg`; a blink 0.5 at `blink_closed_ratio` rising
 * to 1 at 0.2 (eyes fully closed); a smile 0.5 at `smile_width_ratio` rising
 * to 1 at twice the widening (1.24); a frame without
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
  const yawNearFrontal = delta.map((d) => d !== null && Math.abs(d) < o.turn_threshold_deg);
  // Looks are measured against the resting pitch, on frames that did not turn (pitch moves with yaw).
  const restingPitches = measures.map((m, i) => (yawNearFrontal[i] ? m.pitch : null)).filter((x): x is number => x !== null);
  const restingPitch = restingPitches.length ? quantile(restingPitches, 0.5) : null;
  const pitchDelta = measures.map((m, i) => (yawNearFrontal[i] && m.pitch !== null && restingPitch !== null ? m.pitch - restingPitch : null));
  const nearFrontal = yawNearFrontal.map((near, i) => near && (pitchDelta[i] === null || Math.abs(pitchDelta[i]!) < o.pitch_threshold_deg));
  const frontalOpenness = measures.map((m, i) => (nearFrontal[i] ? m.openness : null)).filter((x): x is number => x !== null);
  const openBaseline = frontalOpenness.length ? quantile(frontalOpenness, 0.75) : null;
  const restingMouths = measures.map((m, i) => (nearFrontal[i] ? m.mouthWidth : null)).filter((x): x is number => x !== null);
  const restingMouth = restingMouths.length ? quantile(restingMouths, 0.5) : null;
  const mouthRatio = measures.map((m, i) => (nearFrontal[i] && m.mouthWidth !== null && restingMouth !== null ? m.mouthWidth / restingMouth : null));
  const motion: Motion = { delta, pitchDelta, openness: measures.map((m) => m.openness), mouthRatio, nearFrontal, openBaseline, options: o };
  const detected = baseline === null ? [] : detectActionsInOrder(actions, motion);
  const best = bestFrame(measures, openBaseline, restingPitch, o);
  const turns = detected.filter((d) => d.detected && EXCURSIONS[d.action]?.axis === "yaw" && d.frame !== null && d.value !== null).map((d) => ({ frame: d.frame!, yawChangeDeg: d.value! }));
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
      resting_pitch_deg: roundOrNull(restingPitch, 1),
      mouth_width: measures.map((m) => roundOrNull(m.mouthWidth, 3)),
      resting_mouth_width: roundOrNull(restingMouth, 3),
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
