import { linearRgb } from "./colour-challenge";

/**
 * Does the light reflected by the face follow the screen's colours? The
 * rule of the colour challenge (docs/hosted-flow.md "Liveness: the colour challenge").
 * Pure: the skin colours are measured in the vision worker
 * (workers/skin-colour.mjs, mean linear RGB of the inner face).
 *
 * The face is lit by the room (unknown, steady over a few seconds) plus the
 * screen, which shows colour k while frame k is taken. Per channel the skin
 * reflects reflectance x (room + screen_k), so dividing each frame's skin
 * colour by the burst's mean cancels the skin's own colour, and removing the
 * mean over the three channels cancels brightness (exposure, distance):
 * what remains is the frame's CHROMA SHIFT, in log units,
 *   measured_k = log(skin_k / mean skin) - its mean over r, g, b.
 * The emitted colour predicts its direction,
 *   expected_k = linear(colour_k) - mean over the burst - its mean over r, g, b.
 * A face lit by the screen shifts towards each colour in turn; a recording
 * made before the challenge shifts by its own old light (or not at all).
 *
 *  - `correlation`: of all measured shifts against all expected ones (how
 *    well the direction follows, -1 to 1);
 *  - `response`: the measured shifts' size (RMS over frames, log units): how
 *    much the face's colour changed at all;
 *  - `agreeing_share`: the share of frames whose shift points towards its
 *    emitted colour (positive dot product).
 * Verdict:
 *  - `follows`: response >= `min_response`, correlation >= `follows_correlation`
 *    and agreeing_share >= `min_agreeing_share`;
 *  - `contradicts` (positive evidence of a replay): the face's colour changed
 *    strongly (response >= `strong_response`) but not with the screen
 *    (correlation <= `contradicts_correlation`);
 *  - `inconclusive` otherwise: too little response (a bright room, a dim
 *    screen, dark skin, a still recording) or a weak, partial match. Never a
 *    pass; the caller asks for a retake or a review.
 */
export type ColourResponseOptions = {
  /**
   * Smallest chroma response (RMS log units) that can count as following:
   * 2% of chroma. Frames of one still picture (the fixtures' photos held
   * still, camera noise and exposure jitter, no coloured light) vary by
   * 0.002-0.01. A saturated screen colour adding 5% of the room's light
   * (a bright room) already shifts the skin's chroma by about 0.03.
   */
  min_response: number;
  /**
   * Correlation from which the response follows the colours. The screen's
   * light adds to the room's, so a face's shift is the emitted colour scaled
   * per channel (the camera's white balance weights the channels, up to 2x
   * apart). Simulated with such weights: real responses pass 99% of the time
   * once the screen adds 30% of the room's light with 2% noise per frame
   * (78% at 15%: those are asked to retake). A recording lit by ANOTHER
   * sequence reaches 0.90-0.93 when the two differ in one frame by a
   * neighbouring hue (red for yellow): 0.23% of random pairs pass at 0.9,
   * none of 50,000 at 0.95. The fixture bursts replayed against random
   * sequences (34 bursts x 2,000) reached 0.9 in none.
   */
  follows_correlation: number;
  /** Share of frames that must point towards their own colour. */
  min_agreeing_share: number;
  /** A chroma response this strong (10%, 5x `min_response`) that does not follow the screen is a contradiction, not noise. */
  strong_response: number;
  /** At or below this correlation a strong response contradicts the colours (a random sequence scatters around 0). */
  contradicts_correlation: number;
};

export const COLOUR_RESPONSE_DEFAULTS: Readonly<ColourResponseOptions> = Object.freeze({
  min_response: 0.02,
  follows_correlation: 0.95,
  min_agreeing_share: 0.75,
  strong_response: 0.1,
  contradicts_correlation: 0.2,
});

export type ColourFrame = {
  colour: string;
  /** Measured chroma shift [r, g, b] (log units), null when the frame's skin could not be measured. */
  shift: [number, number, number] | null;
  /** The shift the emitted colour predicts (linear light, same construction). */
  expected: [number, number, number];
  /** Points towards its colour (null when unmeasured). */
  agrees: boolean | null;
};

export type ColourResponse = {
  verdict: "follows" | "contradicts" | "inconclusive";
  /** Why it is inconclusive (null otherwise). */
  reason: "too_few_frames" | "too_little_response" | "unclear_match" | null;
  correlation: number | null;
  response: number | null;
  agreeing_share: number | null;
  frames: ColourFrame[];
  thresholds: ColourResponseOptions;
};

type Vec3 = [number, number, number];
const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;
const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const withoutChannelMean = (v: Vec3): Vec3 => {
  const m = (v[0] + v[1] + v[2]) / 3;
  return [v[0] - m, v[1] - m, v[2] - m];
};
const meanOf = (vs: Vec3[]): Vec3 => [0, 1, 2].map((c) => vs.reduce((s, v) => s + v[c]!, 0) / vs.length) as Vec3;

/**
 * The colour challenge's rule over one burst: `emitted[k]` the screen colour
 * of frame k (the server's copy), `skin[k]` the frame's mean linear skin
 * colour (null: unmeasured). Frames beyond `emitted` are not judged.
 */
export function colourResponseVerdict(emitted: readonly string[], skin: ReadonlyArray<Vec3 | null>, options?: Partial<ColourResponseOptions>): ColourResponse {
  const o: ColourResponseOptions = { ...COLOUR_RESPONSE_DEFAULTS, ...options };
  const n = Math.min(emitted.length, skin.length);
  const measured = Array.from({ length: n }, (_, k) => k).filter((k) => skin[k] && skin[k]!.every((c) => c > 0));
  const light = emitted.slice(0, n).map((c) => linearRgb(c));
  // Expected and measured shifts are both taken relative to the frames that were measured.
  const lightMean = meanOf(measured.length ? measured.map((k) => light[k]!) : light);
  const logs = new Map(measured.map((k) => [k, skin[k]!.map(Math.log) as Vec3]));
  const logMean = measured.length ? meanOf([...logs.values()]) : ([0, 0, 0] as Vec3);

  const frames: ColourFrame[] = Array.from({ length: n }, (_, k) => {
    const expected = withoutChannelMean([0, 1, 2].map((c) => light[k]![c]! - lightMean[c]!) as Vec3);
    const log = logs.get(k);
    const shift = log ? withoutChannelMean([0, 1, 2].map((c) => log[c]! - logMean[c]!) as Vec3) : null;
    return { colour: emitted[k]!, shift, expected, agrees: shift ? dot(shift, expected) > 0 : null };
  });

  const used = frames.filter((f) => f.shift !== null);
  const distinctColours = new Set(used.map((f) => f.colour)).size;
  const rounded = (f: ColourFrame): ColourFrame => ({
    ...f,
    shift: f.shift ? (f.shift.map((x) => round(x)) as Vec3) : null,
    expected: f.expected.map((x) => round(x)) as Vec3,
  });
  if (used.length < 3 || distinctColours < 2) {
    return { verdict: "inconclusive", reason: "too_few_frames", correlation: null, response: null, agreeing_share: null, frames: frames.map(rounded), thresholds: o };
  }

  const sxy = used.reduce((s, f) => s + dot(f.shift!, f.expected), 0);
  const sxx = used.reduce((s, f) => s + dot(f.shift!, f.shift!), 0);
  const syy = used.reduce((s, f) => s + dot(f.expected, f.expected), 0);
  const correlation = sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : 0;
  const response = Math.sqrt(sxx / used.length);
  const agreeingShare = used.filter((f) => f.agrees).length / used.length;

  let verdict: ColourResponse["verdict"] = "inconclusive";
  let reason: ColourResponse["reason"] = null;
  if (response >= o.min_response && correlation >= o.follows_correlation && agreeingShare >= o.min_agreeing_share) verdict = "follows";
  else if (response >= o.strong_response && correlation <= o.contradicts_correlation) verdict = "contradicts";
  else reason = response < o.min_response ? "too_little_response" : "unclear_match";

  return {
    verdict,
    reason,
    correlation: round(correlation, 3),
    response: round(response),
    agreeing_share: round(agreeingShare, 3),
    frames: frames.map(rounded),
    thresholds: o,
  };
}
