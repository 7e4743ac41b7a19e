import type { LivenessData, LivenessVerdict } from "@/lib/liveness/liveness-verdict";
import type { FaceAnalysis } from "@/lib/vision/pool";
import { colourResponseVerdict, type ColourResponse, type ColourResponseOptions } from "./colour-response";

/**
 * The liveness verdict with the colour challenge's finding folded in
 * (docs/hosted-flow.md "Liveness: the colour challenge"). The colour response is the one
 * thing a recording made before the challenge cannot produce, so nothing
 * passes without it:
 *
 *   head-turn verdict  colour response   outcome
 *   passed             follows           passed
 *   passed             contradicts       failed  spoof_suspected (evidence: colour_challenge)
 *   passed             inconclusive      review  colour_response_unclear (the person may retake)
 *   passed             skipped           review  colour_challenge_skipped (the photosensitive alternative)
 *   failed             contradicts       failed  spoof_suspected, when the head-turn failure was only
 *                                                 `different_person` or `action_not_detected`
 *   failed             anything else     failed  as the head-turn verdict said
 *
 * A decline needs positive evidence: only a strong colour change that does
 * not follow the screen declines; too little light on the face is never a
 * decline (a review, or a retake while attempts are left). A review scores
 * below 0.5 (live_score >= 0.5 exactly when passed).
 */
export type ColourChallengeEvidence = ({ skipped: false } & ColourResponse) | { skipped: true };

export type ColourCheckedVerdict = Omit<LivenessVerdict, "status" | "data"> & {
  status: "passed" | "failed" | "review";
  data: LivenessData & { colour_challenge: ColourChallengeEvidence };
};

const SPOOF_MESSAGE = "The camera did not see a live person: what it saw looked like a photo or a screen";
/** Head-turn failures a contradicting colour response outranks (spoof_suspected comes first, as in the head-turn verdict). */
const OUTRANKED = ["different_person", "action_not_detected"];

/** The largest face of each frame: the person's (as the head-turn verdict takes it). */
export function skinColours(analyses: readonly FaceAnalysis[]): Array<[number, number, number] | null> {
  return analyses.map((a) => {
    const face = [...a.faces].sort((p, q) => q.box[2] * q.box[3] - p.box[2] * p.box[3])[0];
    return face?.skin_rgb ?? null;
  });
}

export function withColourChallenge(
  verdict: LivenessVerdict,
  colours: readonly string[],
  analyses: readonly FaceAnalysis[],
  options?: Partial<ColourResponseOptions>,
): ColourCheckedVerdict {
  if (colours.length === 0) {
    const colour_challenge: ColourChallengeEvidence = { skipped: true };
    if (verdict.status === "failed") return { ...verdict, status: "failed", data: { ...verdict.data, colour_challenge } };
    return review(verdict, colour_challenge, {
      code: "colour_challenge_skipped",
      message: "The colour part of the check was skipped at the person's request (photosensitivity); a person will review the liveness check",
    });
  }
  const response = colourResponseVerdict(colours, skinColours(analyses), options);
  const colour_challenge: ColourChallengeEvidence = { skipped: false, ...response };
  const data = { ...verdict.data, colour_challenge };
  const spoof = () => ({ ...verdict, status: "failed" as const, live_score: 0, data: { ...data, live_score: 0 }, error: { code: "spoof_suspected", message: SPOOF_MESSAGE } });
  if (verdict.status === "failed") {
    return response.verdict === "contradicts" && OUTRANKED.includes(verdict.error?.code ?? "") ? spoof() : { ...verdict, status: "failed", data };
  }
  if (response.verdict === "follows") return { ...verdict, status: "passed", data };
  if (response.verdict === "contradicts") return spoof();
  return review(verdict, colour_challenge, {
    code: "colour_response_unclear",
    message: "The screen's coloured light could not be seen clearly on the face (a bright room, low light or a dim screen); try again, or a person will review it",
  });
}

function review(verdict: LivenessVerdict, colour_challenge: ColourChallengeEvidence, error: { code: string; message: string }): ColourCheckedVerdict {
  const live_score = Math.min(0.49, verdict.live_score);
  return { ...verdict, status: "review", live_score, data: { ...verdict.data, live_score, colour_challenge }, error };
}
