import type { Session } from "@/generated/prisma/client";
import { closestFace, enrollFace } from "@/lib/faces/gallery";
import { roundScore, type FaceTemplate } from "@/lib/faces/templates";
import type { WorkflowSnapshot } from "@/lib/sessions/present";
import { recordCheckResult } from "@/lib/sessions/record-check";

/**
 * face_uniqueness: 1:N search of the selfie against the app's enrolled
 * faces. A face at or above the threshold fails the check and names the
 * existing `svc_uuid`; otherwise the face is enrolled and its new `svc_uuid`
 * returned. A retry of the same session replaces its own enrollment instead
 * of matching it.
 */
export async function runFaceUniqueness(session: Session, selfie: FaceTemplate) {
  const settings = (session.workflowSnapshot as WorkflowSnapshot).settings.face_uniqueness;
  if (!settings || !session.features.includes("face_uniqueness")) return null;
  const started = performance.now();
  const match = await closestFace(session.appId, selfie, session.id, settings.threshold);
  const duplicate = match !== null && match.similarity >= settings.threshold;
  const svcUuid = duplicate ? match.svc_uuid : await enrollFace(session.appId, session.id, selfie);
  const similarity = match ? roundScore(match.similarity) : null;
  const data = duplicate
    ? { svc_uuid: svcUuid, duplicate: true, similarity, threshold: settings.threshold }
    : { svc_uuid: svcUuid, duplicate: false, enrolled: true, threshold: settings.threshold };
  const error = duplicate
    ? { code: "duplicate_face", message: `This face is already enrolled for this project as ${svcUuid}` }
    : null;
  await recordCheckResult({
    sessionId: session.id,
    type: "face_uniqueness",
    status: duplicate ? "failed" : "passed",
    score: similarity,
    data,
    error,
    evidence: {
      selfie_sha256: selfie.source_sha256,
      model: selfie.model,
      closest: match ? { svc_uuid: match.svc_uuid, similarity } : null,
      search_ms: Math.round(performance.now() - started),
    },
  });
  return { type: "face_uniqueness", status: duplicate ? "failed" : "passed", data, error };
}
