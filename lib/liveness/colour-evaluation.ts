import { randomInt } from "node:crypto";
import type { FaceAnalysis } from "@/lib/vision/pool";
import { drawColours } from "./colour-challenge";
import { colourResponseVerdict, type ColourResponse } from "./colour-response";
import { skinColours } from "./colour-verdict";

/**
 * The colour challenge against recordings (for `npm run eval:liveness` and
 * tests/checks/colour-response-fixtures.test.ts): a burst recorded
 * without the screen's light of THIS challenge (every fixture burst: live
 * ones, printed photos, screen replays) is judged against `trials` freshly
 * drawn colour sequences, as if replayed into that many challenges. Counts
 * each colour verdict; an attack passes the colour challenge only on
 * `follows`.
 */
export type ColourReplayCounts = Record<ColourResponse["verdict"], number> & { trials: number; response: number | null };

export function replayAgainstRandomColours(analyses: readonly FaceAnalysis[], trials: number, random: (max: number) => number = randomInt): ColourReplayCounts {
  const skin = skinColours(analyses);
  const counts: ColourReplayCounts = { follows: 0, contradicts: 0, inconclusive: 0, trials, response: null };
  for (let i = 0; i < trials; i++) {
    const verdict = colourResponseVerdict(drawColours(8, random), skin);
    counts[verdict.verdict]++;
    counts.response = verdict.response;
  }
  return counts;
}
