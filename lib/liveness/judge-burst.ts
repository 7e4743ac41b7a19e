import { livenessVerdict } from "@/lib/liveness/liveness-verdict";
import { faceTemplate, MIN_FACE_SCORE } from "@/lib/faces/single-face";
import type { FaceTemplate } from "@/lib/faces/templates";
import { ApiError } from "@/lib/http/api-error";
import type { Upload, UploadedFile } from "@/lib/http/read-upload";
import { inspectImage } from "@/lib/images/inspect-image";
import { sha256Hex } from "@/lib/artifacts/artifacts";
import { analyseFaces, VisionUnavailableError, type FaceAnalysis } from "@/lib/vision/pool";
import { BURST_FRAMES, type IssuedChallenge } from "./challenges";
import { withColourChallenge, type ColourCheckedVerdict } from "./colour-verdict";

/**
 * A liveness burst, judged: the same engine for a verification session's
 * liveness step (lib/checks/run-liveness.ts) and for face sign-in
 * (lib/oidc/face-sign-in.ts).
 */
export const FRAME_FIELDS = ["frames", "frames[]", "frame"];

/** The burst's frames: 400 `frames_required` (none), `invalid_frames` (fewer than 3), `too_many_frames` (more than 8). */
export function burstFrames(upload: Upload): UploadedFile[] {
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
  return frames;
}

export type JudgedBurst = {
  verdict: ColourCheckedVerdict;
  analyses: FaceAnalysis[];
  hashes: string[];
  model: string;
  analyseMs: number;
  /** The best frame's face (the selfie), when one was usable. */
  best: { index: number; template: FaceTemplate } | null;
};

/**
 * Each frame must be an image (422 `invalid_image`) and some frame must show
 * a face (422 `no_face`), confidently (422 `face_rescan_required`); then the
 * challenge's actions are judged over the frames, and the light on the face
 * against the challenge's colours (lib/liveness/colour-verdict.ts).
 */
export async function judgeBurst(frames: UploadedFile[], challenge: IssuedChallenge): Promise<JudgedBurst> {
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
  const analyseMs = Math.round(performance.now() - started);
  const allFaces = analyses.flatMap((a) => a.faces);
  if (allFaces.length === 0) {
    throw new ApiError("no_face", { message: "No face in any frame: keep your face inside the oval and try again" });
  }
  if (!allFaces.some((f) => f.score >= MIN_FACE_SCORE && f.embedding)) {
    throw new ApiError("face_rescan_required", { message: "Your face was not clear in any frame: face the camera in good light and try again" });
  }
  const verdict = withColourChallenge(livenessVerdict(challenge.actions, analyses), challenge.colours, analyses);
  const hashes = frames.map((f) => sha256Hex(f.bytes));
  const model = analyses[0]!.model;
  const bestIndex = verdict.data.best_frame;
  const face = bestIndex === null || verdict.data.best_face === null ? null : analyses[bestIndex]?.faces[verdict.data.best_face];
  const best = face?.embedding && bestIndex !== null ? { index: bestIndex, template: faceTemplate(face, model, hashes[bestIndex]!) } : null;
  return { verdict, analyses, hashes, model, analyseMs, best };
}
