import fs from "node:fs";
import path from "node:path";
import { livenessVerdict, type LivenessVerdict } from "@/lib/liveness/liveness-verdict";
import { analyseFaces, type FaceAnalysis } from "@/lib/vision/pool";
import type { LivenessAction } from "@/lib/workflows/settings";
import { drawColours } from "./colour-challenge";
import { replayAgainstRandomColours } from "./colour-evaluation";
import { withColourChallenge } from "./colour-verdict";

/**
 * The presentation-attack evaluation (`npm run eval:liveness`, and the test
 * suite's tests/checks/presentation-attacks.test.ts): every burst of two
 * independent renderers goes through the real face engine and the liveness
 * verdict, answering the challenge its frames perform (a burst that performs
 * nothing is asked [turn_left, turn_right]).
 *
 *  - renderer A: tests/fixtures/attacks (generate-attacks.ts) plus the live
 *    bursts of tests/fixtures/faces. The verdict's thresholds were chosen on A.
 *  - renderer B: tests/fixtures/attacks-b (generate-attacks-b.ts, no code in
 *    common with A: other photos and people, OLED / LCD-BGR phone screens,
 *    dithered curled prints, a Bayer camera). Held out: never tuned on.
 *
 * Reported per renderer and kind: APCER (share of attacks accepted) or BPCER
 * (share of live bursts refused), and per signal how many bursts it flags.
 */
export type BurstKind = "live" | "print" | "screen" | "still";
export type Renderer = "A" | "B";
export type Burst = { name: string; renderer: Renderer; kind: BurstKind; performs: LivenessAction[]; files: string[] };
export type BurstResult = { burst: Burst; verdict: LivenessVerdict; frames: FaceAnalysis[] };

/**
 * One presentation-attack signal, as a column of the report: does it flag
 * this burst on its own? A new signal (the colour response of the colour
 * challenge) is one more entry here.
 */
export type PadSignal = { name: string; flags: (result: BurstResult) => boolean };

const padReason = (reason: LivenessVerdict["data"]["presentation_attack"]["reasons"][number]) => (r: BurstResult) => r.verdict.data.presentation_attack.reasons.includes(reason);

export const PAD_SIGNALS: readonly PadSignal[] = [
  { name: "flat turn", flags: padReason("flat_turn") },
  { name: "texture", flags: padReason("screen_or_print_texture") },
  { name: "glare", flags: padReason("glare") },
];

export type KindSummary = {
  renderer: Renderer;
  kind: BurstKind;
  bursts: number;
  accepted: number;
  refused: number;
  rate: number;
  metric: "APCER" | "BPCER";
  /** Bursts the presentation-attack signals together flag, whatever else failed first. */
  padFlagged: number;
  /** Per signal (PAD_SIGNALS), bursts it flags on its own. */
  signals: Record<string, number>;
  codes: Record<string, number>;
  /** Names of the bursts on the wrong side (attacks accepted, live bursts refused). */
  wrong: string[];
};

const FIXTURES = path.join(process.cwd(), "tests", "fixtures");
/** The live bursts of tests/fixtures/faces that perform a challenge (renderer A's sources). */
const LIVE_SEQUENCES = ["a-left-right", "a-right-left"];
const DEFAULT_CHALLENGE: LivenessAction[] = ["turn_left", "turn_right"];
const RENDERER_FOLDERS: Record<Renderer, string> = { A: "attacks", B: "attacks-b" };

type ManifestEntry = { name: string; kind?: BurstKind; performs: LivenessAction[]; frames: Array<{ file: string }> };

function readManifest(folder: string): ManifestEntry[] {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, folder, "manifest.json"), "utf8")) as ManifestEntry[];
}

function rendererBursts(renderer: Renderer): Burst[] {
  const folder = RENDERER_FOLDERS[renderer];
  return readManifest(folder).map((b) => ({ name: b.name, renderer, kind: b.kind!, performs: b.performs, files: b.frames.map((f) => path.join(FIXTURES, folder, f.file)) }));
}

/** Every burst of the evaluation: renderer A (with the original live sequences), then renderer B. */
export function evaluationBursts(renderers: readonly Renderer[] = ["A", "B"]): Burst[] {
  const bursts: Burst[] = [];
  for (const renderer of renderers) {
    bursts.push(...rendererBursts(renderer));
    if (renderer === "A") {
      for (const b of readManifest("faces").filter((x) => LIVE_SEQUENCES.includes(x.name))) {
        bursts.push({ name: `faces/${b.name}`, renderer, kind: "live", performs: b.performs, files: b.frames.map((f) => path.join(FIXTURES, "faces", f.file)) });
      }
    }
  }
  return bursts;
}

export async function judgeEvaluationBurst(burst: Burst): Promise<BurstResult> {
  const frames: FaceAnalysis[] = await Promise.all(burst.files.map((f) => analyseFaces(fs.readFileSync(f))));
  return { burst, verdict: livenessVerdict(challengeOf(burst), frames), frames };
}

const challengeOf = (burst: Burst) => (burst.performs.length ? burst.performs : DEFAULT_CHALLENGE);

/**
 * The burst answering colour challenges, with the whole liveness verdict
 * (presentation-attack cues, then the colour response: lib/liveness/
 * colour-verdict.ts). An attack is a recording made before the challenge:
 * its frames as they are, judged against `trials` random colour sequences;
 * it passes a trial only when the cues pass it and its light follows that
 * trial's colours. A live burst is the person in front of the lit screen:
 * `light` renders its frames under LIVE_LIT_SEQUENCES random sequences (the test light of
 * tests/support/screen-light.ts: the screen adds 30 % of the room's light)
 * and the engine judges the lit frames. `passed` counts the trials passed.
 */
export type ColourJudgement = { trials: number; passed: number };

export async function judgeWithColourChallenge(
  result: BurstResult,
  light: (frames: Buffer[], colours: string[]) => Promise<Buffer[]>,
  random: (max: number) => number,
  trials = 200,
): Promise<ColourJudgement> {
  if (result.burst.kind !== "live") {
    if (result.verdict.status !== "passed") return { trials, passed: 0 };
    return { trials, passed: replayAgainstRandomColours(result.frames, trials, random).follows };
  }
  const images = result.burst.files.map((f) => fs.readFileSync(f));
  let passed = 0;
  for (let i = 0; i < LIVE_LIT_SEQUENCES; i++) {
    const colours = drawColours(result.burst.files.length, random);
    const frames = await Promise.all((await light(images, colours)).map((image) => analyseFaces(image)));
    if (withColourChallenge(livenessVerdict(challengeOf(result.burst), frames), colours, frames).status === "passed") passed++;
  }
  return { trials: LIVE_LIT_SEQUENCES, passed };
}

/** Colour sequences each live burst is lit by: one is luck; the light's effect on identity and pose differs per colour. */
const LIVE_LIT_SEQUENCES = 5;

/** Is this burst on the wrong side: an attack accepted, or a live burst refused? */
export const misjudged = (r: BurstResult) => (r.verdict.status === "passed") !== (r.burst.kind === "live");

export function summarise(results: BurstResult[]): KindSummary[] {
  const groups = [...new Set(results.map((r) => `${r.burst.renderer}/${r.burst.kind}`))];
  return groups.map((group) => {
    const [renderer, kind] = group.split("/") as [Renderer, BurstKind];
    const of = results.filter((r) => r.burst.renderer === renderer && r.burst.kind === kind);
    const accepted = of.filter((r) => r.verdict.status === "passed").length;
    const codes: Record<string, number> = {};
    for (const r of of) {
      const code = r.verdict.error?.code ?? "passed";
      codes[code] = (codes[code] ?? 0) + 1;
    }
    const live = kind === "live";
    const signals = Object.fromEntries(PAD_SIGNALS.map((s) => [s.name, of.filter(s.flags).length]));
    return {
      renderer,
      kind,
      bursts: of.length,
      accepted,
      refused: of.length - accepted,
      rate: (live ? of.length - accepted : accepted) / of.length,
      metric: live ? "BPCER" : "APCER",
      padFlagged: of.filter((r) => r.verdict.data.presentation_attack.suspected).length,
      signals,
      codes,
      wrong: of.filter(misjudged).map((r) => r.burst.name),
    };
  });
}

/** The targets: APCER 0% on every attack kind, BPCER at most 5% on live bursts, on every renderer. */
export const meetsTarget = (s: KindSummary) => (s.metric === "APCER" ? s.rate === 0 : s.rate <= 0.05);
