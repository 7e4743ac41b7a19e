import fs from "node:fs";
import path from "node:path";
import { livenessVerdict, type LivenessVerdict } from "@/lib/checks/liveness-verdict";
import { analyseFaces, type FaceAnalysis } from "@/lib/vision/pool";
import type { LivenessAction } from "@/lib/workflows/settings";

/**
 * The presentation-attack evaluation (`npm run eval:liveness`, and the test
 * suite's tests/integration/presentation-attacks.test.ts): every burst of
 * tests/fixtures/attacks (generated printed photos, screen replays, photos
 * held still, and live bursts through camera variation) plus the live bursts
 * of tests/fixtures/faces goes through the real face engine and the liveness
 * verdict, answering the challenge its frames perform (a burst that performs
 * nothing is asked [turn_left, turn_right]). Reported per kind: APCER, the
 * share of attacks accepted, and BPCER, the share of live bursts refused.
 */
export type BurstKind = "live" | "print" | "screen" | "still";
export type Burst = { name: string; kind: BurstKind; performs: LivenessAction[]; files: string[] };
export type BurstResult = { burst: Burst; verdict: LivenessVerdict };
export type KindSummary = {
  kind: BurstKind;
  bursts: number;
  accepted: number;
  refused: number;
  rate: number;
  metric: "APCER" | "BPCER";
  /** Bursts the presentation-attack signals alone flag, whatever else failed first. */
  padFlagged: number;
  codes: Record<string, number>;
};

const FIXTURES = path.join(process.cwd(), "tests", "fixtures");
/** The live bursts of tests/fixtures/faces that perform a challenge. */
const LIVE_SEQUENCES = ["a-left-right", "a-right-left"];
const DEFAULT_CHALLENGE: LivenessAction[] = ["turn_left", "turn_right"];

type ManifestEntry = { name: string; kind?: BurstKind; performs: LivenessAction[]; frames: Array<{ file: string }> };

function readManifest(folder: string): ManifestEntry[] {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, folder, "manifest.json"), "utf8")) as ManifestEntry[];
}

/** Every burst of the evaluation: the generated set, then the original live sequences. */
export function evaluationBursts(): Burst[] {
  const generated = readManifest("attacks").map((b) => ({ name: b.name, kind: b.kind!, performs: b.performs, files: b.frames.map((f) => path.join(FIXTURES, "attacks", f.file)) }));
  const live = readManifest("faces")
    .filter((b) => LIVE_SEQUENCES.includes(b.name))
    .map((b) => ({ name: `faces/${b.name}`, kind: "live" as const, performs: b.performs, files: b.frames.map((f) => path.join(FIXTURES, "faces", f.file)) }));
  return [...generated, ...live];
}

export async function judgeEvaluationBurst(burst: Burst): Promise<BurstResult> {
  const frames: FaceAnalysis[] = await Promise.all(burst.files.map((f) => analyseFaces(fs.readFileSync(f))));
  return { burst, verdict: livenessVerdict(burst.performs.length ? burst.performs : DEFAULT_CHALLENGE, frames) };
}

export function summarise(results: BurstResult[]): KindSummary[] {
  const kinds = [...new Set(results.map((r) => r.burst.kind))];
  return kinds.map((kind) => {
    const of = results.filter((r) => r.burst.kind === kind);
    const accepted = of.filter((r) => r.verdict.status === "passed").length;
    const codes: Record<string, number> = {};
    for (const r of of) {
      const code = r.verdict.error?.code ?? "passed";
      codes[code] = (codes[code] ?? 0) + 1;
    }
    const live = kind === "live";
    const padFlagged = of.filter((r) => r.verdict.data.presentation_attack.suspected).length;
    return { kind, bursts: of.length, accepted, refused: of.length - accepted, rate: (live ? of.length - accepted : accepted) / of.length, metric: live ? "BPCER" : "APCER", padFlagged, codes };
  });
}
