import type { Session } from "@/generated/prisma/client";
import { faceTemplate, MIN_FACE_SCORE } from "@/lib/faces/single-face";
import { ApiError } from "@/lib/http/api-error";
import type { Upload } from "@/lib/http/read-upload";
import { inspectImage } from "@/lib/images/inspect-image";
import { assertBurstAllowed, BURST_FRAMES, consumeChallenge } from "@/lib/liveness/challenges";
import { saveArtifact, saveJsonArtifact, sha256Hex } from "@/lib/sessions/artifacts";
import { recordCheckResult } from "@/lib/sessions/record-check";
import { analyseFaces, VisionUnavailableError, type FaceAnalysis } from "@/lib/vision/pool";
import { livenessVerdict } from "./liveness-verdict";
import { runFaceMatchIfReady } from "./run-face-match";
import { runFaceUniqueness } from "./run-face-uniqueness";

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
 * the selfie for face match and (once live) face uniqueness.
 */
export const FRAME_FIELDS = ["frames", "frames[]", "frame"];

export async function submitLivenessBurst(session: Session, upload: Upload) {
  await assertBurstAllowed(session);
  const frames = upload.files.filter((f) => FRAME_FIELDS.includes(f.field) || /^frame_?\d+$/.test(f.field));
  if (frames.length === 0) {
    throw new ApiError("frames_required", { message: `Send the burst as ${BURST_FRAMES.min} to ${BURST_FRAMES.max} image files in the field "frames"` });
  }
  if (frames.length < BURST_FRAMES.min) {
    throw new ApiError("invalid_frames", { message: `${frames.length} frame(s) sent; live verification needs at least ${BURST_FRAMES.min}`, data: { frames: frames.length } });
  }
  if (frames.length > BURST_FRAMES.max) {
    throw new ApiError("too_many_frames", { message: `${frames.length} frames sent; at most ${BURST_FRAMES.max} are accepted`, data: { frames: frames.length } });
  }
  const actions = await consumeChallenge(session, upload.fields.challenge_id);
  await Promise.all(frames.map((f, i) => inspectImage(f.bytes, `frames[${i}]`)));

  const started = performance.now();
  let analyses: FaceAnalysis[];
  try {
    analyses = await Promise.all(frames.map((f) => analyseFaces(f.bytes)));
  } catch (err) {
    if (err instanceof VisionUnavailableError) {
      throw new ApiError("liveness_unavailable", { message: "The face engine could not check these frames now; try again" });
    }
    throw err;
  }
  const allFaces = analyses.flatMap((a) => a.faces);
  if (allFaces.length === 0) {
    throw new ApiError("no_face", { message: "No face in any frame: keep your face inside the oval and try again" });
  }
  if (!allFaces.some((f) => f.score >= MIN_FACE_SCORE && f.embedding)) {
    throw new ApiError("face_rescan_required", { message: "Your face was not clear in any frame: face the camera in good light and try again" });
  }

  const verdict = livenessVerdict(actions, analyses);
  const hashes = frames.map((f) => sha256Hex(f.bytes));
  const model = analyses[0]!.model;
  const bestIndex = verdict.data.best_frame;
  const best = bestIndex === null || verdict.data.best_face === null ? null : analyses[bestIndex]?.faces[verdict.data.best_face];
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
      timings_ms: { analyse: Math.round(performance.now() - started), per_frame: analyses.map((a) => a.ms) },
      measurements: verdict.data,
    },
  });

  const checks: unknown[] = [{ type: "liveness", status: verdict.status, score: verdict.live_score, data: { live_score: verdict.live_score }, error: verdict.error }];
  if (best?.embedding && bestIndex !== null) {
    const selfie = faceTemplate(best, model, hashes[bestIndex]!);
    await saveArtifact(session.id, "selfie", frames[bestIndex]!.bytes, frames[bestIndex]!.type || "image/jpeg");
    await saveJsonArtifact(session.id, "selfie_template", selfie);
    const faceMatch = await runFaceMatchIfReady(session);
    if (faceMatch) checks.push(faceMatch);
    // A face is only enrolled in the uniqueness gallery once it proved live.
    const uniqueness = verdict.status === "passed" ? await runFaceUniqueness(session, selfie) : null;
    if (uniqueness) checks.push(uniqueness);
  }
  return { checks };
}
