import { ApiError } from "@/lib/http/api-error";
import type { FaceAnalysis } from "@/lib/vision/pool";
import type { FaceTemplate } from "./templates";

/**
 * The one usable face of a selfie or document portrait. No face at all (or
 * several) is 422 `no_face`; a face the detector is unsure of, or too small
 * to compare, is 422 `face_rescan_required`: the page asks for a retake.
 */
export type DetectedFace = FaceAnalysis["faces"][number];

/** Detector confidence below which a face is not trusted for matching (docs/hosted-flow.md "Thresholds"). */
export const MIN_FACE_SCORE = 0.5;
/** Smallest face box side, in pixels of the analysed image, that gives a stable embedding. */
export const MIN_FACE_SIDE = 48;

export function requireOneFace(analysis: FaceAnalysis, what: string): DetectedFace {
  const faces = analysis.faces;
  if (faces.length === 0) {
    throw new ApiError("no_face", { message: `No face found in the ${what}`, data: { field: what } });
  }
  if (faces.length > 1) {
    throw new ApiError("no_face", { message: `${faces.length} faces in the ${what}: only the person verifying may be in view`, data: { field: what, faces: faces.length } });
  }
  const face = faces[0]!;
  if (!face.embedding || face.score < MIN_FACE_SCORE || Math.min(face.box[2], face.box[3]) < MIN_FACE_SIDE) {
    throw new ApiError("face_rescan_required", {
      message: `The face in the ${what} is not clear enough: face the camera in good light, closer, and try again`,
      data: { field: what, score: Math.round(face.score * 100) / 100 },
    });
  }
  return face;
}

export function faceTemplate(face: DetectedFace, model: string, sourceSha256: string): FaceTemplate {
  if (!face.embedding) throw new Error("face without embedding");
  return { embedding: face.embedding, model, source_sha256: sourceSha256 };
}
