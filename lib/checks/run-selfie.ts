import type { Session } from "@/generated/prisma/client";
import { faceTemplate, requireOneFace } from "@/lib/faces/single-face";
import { ApiError } from "@/lib/http/api-error";
import type { Upload } from "@/lib/http/read-upload";
import { inspectImage } from "@/lib/images/inspect-image";
import { saveArtifact, saveJsonArtifact, sha256Hex } from "@/lib/artifacts/artifacts";
import { analyseFaces, VisionUnavailableError } from "@/lib/vision/pool";
import { runFaceMatchIfReady } from "./run-face-match";
import { runFaceUniqueness } from "./run-face-uniqueness";

/**
 * POST /api/v2/face-uniqueness: a single selfie (field `image`) for a
 * workflow with face_uniqueness but no liveness step (with liveness, the
 * selfie is the burst's best frame and this route is not used). One
 * confident face or 422 `no_face` / `face_rescan_required`.
 */
export async function submitSelfie(session: Session, upload: Upload) {
  if (!session.features.includes("face_uniqueness")) {
    throw new ApiError("invalid_request", { message: "This session has no face_uniqueness step" });
  }
  if (session.features.includes("liveness")) {
    throw new ApiError("invalid_request", { message: "In this workflow the selfie is taken by the liveness step (POST /api/v2/antispoof)" });
  }
  const file = upload.files.find((f) => f.field === "image" || f.field === "selfie");
  if (!file) throw new ApiError("invalid_image", { message: "Send the selfie as the image file field \"image\"" });
  await inspectImage(file.bytes, "image");
  let analysis;
  try {
    analysis = await analyseFaces(file.bytes);
  } catch (err) {
    if (err instanceof VisionUnavailableError) throw new ApiError("face_match_unavailable");
    throw err;
  }
  const face = requireOneFace(analysis, "selfie");
  const template = faceTemplate(face, analysis.model, sha256Hex(file.bytes));
  await saveArtifact(session.id, "selfie", file.bytes, file.type || "image/jpeg");
  await saveJsonArtifact(session.id, "selfie_template", template);
  const checks = [];
  const faceMatch = await runFaceMatchIfReady(session);
  if (faceMatch) checks.push(faceMatch);
  const uniqueness = await runFaceUniqueness(session, template);
  if (uniqueness) checks.push(uniqueness);
  return { checks };
}
