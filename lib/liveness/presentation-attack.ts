import type { FaceAnalysis } from "@/lib/vision/pool";
import { affineResidual } from "./flatness";

/**
 * Presentation-attack detection (PAD) over a liveness burst: the head-turn
 * and blink challenge proves motion in order, these signals ask whether the
 * thing moving is a head or a picture of one (iBeta PAD level 1: a printed
 * photo, a screen replay). Pure: the image cues are measured in the vision
 * worker (workers/presentation-cues.mjs). Calibrated with `npm run
 * eval:liveness` on the generated attacks of tests/fixtures/attacks (renderer
 * A) and the live bursts (docs/hosted-flow.md "Presentation attacks"), and judged, never
 * tuned, on renderer B (tests/fixtures/attacks-b): there a replay of a real
 * head turn on a high-DPI screen passes these cues (real parallax, no grid
 * the camera resolves); the colour challenge is what refuses it.
 *
 *  - flat turn: a head turn whose mesh points move as a plane does
 *    (lib/liveness/flatness.ts), i.e. a photo or screen tilted to fake it;
 *  - screen or print texture: strong narrow peaks in the skin's spectrum
 *    (a screen's pixel grid aliased by the camera, a print's halftone dots)
 *    in several frames;
 *  - glare: a large blown-out area over the face in several frames.
 * The shipped anti-spoof model score did not separate the generated attacks
 * from the live bursts (0.46-0.71 live, 0.49-0.76 printed); it is recorded,
 * never deciding.
 */
export type PadOptions = {
  /**
   * A detected turn is flat when the affine-fit residual of its mesh points
   * (in eye distances) is below this fraction of sin(turn angle). Live turns
   * of 21-25 deg measured 0.155-0.206 (0.43-0.53 x sin); a tilted print's
   * points 0.025-0.055 whatever its tilt; still frames' noise up to 0.068.
   */
  flat_turn_ratio: number;
  /** Spectral peak (natural log over its ring's median) from which a frame shows a screen or halftone texture. */
  texture_peak: number;
  /** Share of the face box blown out to white from which a frame shows glare. */
  glare_share: number;
  /** How many frames must show the texture (or the glare) before it counts: one odd frame does not. */
  min_frames: number;
};

export const PAD_DEFAULTS: Readonly<PadOptions> = Object.freeze({
  flat_turn_ratio: 0.2,
  texture_peak: 2.6,
  glare_share: 0.2,
  min_frames: 2,
});

type Face = FaceAnalysis["faces"][number];

export type TurnForPad = { frame: number; yawChangeDeg: number };

export type PadSignals = {
  /** Per detected turn: the affine residual of its peak frame against the baseline, and the flat limit for its angle. */
  turns: Array<{ frame: number; residual: number | null; flat_below: number }>;
  texture_peak: Array<number | null>;
  glare_share: Array<number | null>;
  antispoof_model: Array<number | null>;
};

export type PadVerdict = {
  suspected: boolean;
  /** Which signals fired; internal (reviewers, evidence), never sent to the person. */
  reasons: Array<"flat_turn" | "screen_or_print_texture" | "glare">;
  signals: PadSignals;
  thresholds: PadOptions;
};

const round3 = (x: number | null | undefined) => (x === null || x === undefined ? null : Math.round(x * 1000) / 1000);

/**
 * `faces`: the person's face per frame (null where none); `baseline`: the
 * frontal reference frame; `turns`: the challenge's detected turns.
 */
export function presentationAttackVerdict(faces: Array<Face | null>, baseline: number | null, turns: TurnForPad[], options?: Partial<PadOptions>): PadVerdict {
  const o: PadOptions = { ...PAD_DEFAULTS, ...options };
  const reference = baseline === null ? null : faces[baseline]?.landmarks ?? null;
  const turnSignals = turns.map((t) => {
    const points = faces[t.frame]?.landmarks ?? null;
    const residual = reference && points ? affineResidual(reference, points) : null;
    return { frame: t.frame, residual: round3(residual), flat_below: round3(o.flat_turn_ratio * Math.sin((Math.abs(t.yawChangeDeg) * Math.PI) / 180))! };
  });
  const texture = faces.map((f) => round3(f?.texture?.moire));
  const glare = faces.map((f) => round3(f?.texture?.glare));
  const countAtLeast = (values: Array<number | null>, limit: number) => values.filter((v) => v !== null && v >= limit).length;

  const reasons: PadVerdict["reasons"] = [];
  if (turnSignals.some((t) => t.residual !== null && t.residual < t.flat_below)) reasons.push("flat_turn");
  if (countAtLeast(texture, o.texture_peak) >= o.min_frames) reasons.push("screen_or_print_texture");
  if (countAtLeast(glare, o.glare_share) >= o.min_frames) reasons.push("glare");
  return {
    suspected: reasons.length > 0,
    reasons,
    signals: { turns: turnSignals, texture_peak: texture, glare_share: glare, antispoof_model: faces.map((f) => round3(f?.antispoof)) },
    thresholds: o,
  };
}
