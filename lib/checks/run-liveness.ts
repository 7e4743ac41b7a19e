import type { StepCheck } from "./step-check";
import type { Session } from "@/generated/prisma/client";
import type { Upload } from "@/lib/http/read-upload";
import { consumeChallenge } from "@/lib/liveness/challenges";
import { assertBurstAllowed } from "./liveness-challenges";
import { burstFrames, judgeBurst } from "@/lib/liveness/judge-burst";
import { keepLivenessFrames, saveArtifact, saveJsonArtifact } from "@/lib/artifacts/artifacts";
import { recordCheckResult } from "@/lib/sessions/record-check";
import type { FaceTemplate } from "@/lib/faces/templates";
import { runFaceMatchIfReady } from "./run-face-match";
import { runFaceUniqueness } from "./run-face-uniqueness";

/** One check as a hosted-flow step answers it (`{ checks }`). */
export type { StepCheck };

/**
 * POST /api/v2/antispoof: the burst of the liveness step. Its challenge was
 * already counted as an attempt when issued (lib/liveness/challenges.ts), so
 * the burst of the last allowed challenge is judged like any other. Order of
 * refusals: liveness already passed 409 `liveness_already_passed`; no frames 400 `frames_required`, fewer than 3 400 `invalid_frames`, more
 * than 8 400 `too_many_frames`; the challenge (403 `invalid_challenge`, 400
 * `challenge_expired`; it is used up from here on); each frame an image (422
 * `invalid_image`); a face somewhere (422 `no_face`, or
 * `face_rescan_required` when no frame has a confident face). Then the
 * verdict is recorded (billed once per session) and the best frame becomes
 * the selfie for face match and (once live, or in review) face uniqueness. A burst that
 * went to review keeps all its frames for the reviewer who settles it
 * (lib/sessions/review-check.ts); any other burst clears an earlier one's.
 *
 * `enrolledFace`: the face match is against this enrolled face of the
 * session's account (POST /api/v2/antispoof/identity, ./run-identity-burst.ts).
 */
export async function submitLivenessBurst(session: Session, upload: Upload, options: { enrolledFace?: FaceTemplate } = {}): Promise<{ checks: StepCheck[] }> {
  await assertBurstAllowed(session);
  const frames = burstFrames(upload);
  const challenge = await consumeChallenge(session, upload.fields.challenge_id);
  const { actions } = challenge;
  const { verdict, hashes, model, analyseMs, analyses, best } = await judgeBurst(frames, challenge);
  await recordCheckResult({
    sessionId: session.id,
    type: "liveness",
    status: verdict.status,
    score: verdict.live_score,
    data: { live_score: verdict.live_score, actions, frames: frames.length },
    error: verdict.error,
    evidence: {
      frames_sha256: hashes,
      model,
      timings_ms: { analyse: analyseMs, per_frame: analyses.map((a) => a.ms) },
      measurements: verdict.data,
    },
  });
  await keepLivenessFrames(session.id, verdict.status === "review" ? frames : []);

  const checks: StepCheck[] = [{ type: "liveness", status: verdict.status, score: verdict.live_score, data: { live_score: verdict.live_score }, error: verdict.error }];
  if (best) {
    const selfie = best.template;
    await saveArtifact(session.id, "selfie", frames[best.index]!.bytes, frames[best.index]!.type || "image/jpeg");
    await saveJsonArtifact(session.id, "selfie_template", selfie);
    const faceMatch = await runFaceMatchIfReady(session, options);
    if (faceMatch) checks.push(faceMatch);
    // A face is enrolled in the uniqueness gallery only once it proved live, or while a reviewer
    // is to judge its liveness: a session that ends without approval gives it back (releaseSessionFaces).
    const uniqueness = verdict.status === "passed" || verdict.status === "review" ? await runFaceUniqueness(session, selfie) : null;
    if (uniqueness) checks.push(uniqueness);
  }
  return { checks };
}
