import type { Session } from "@/generated/prisma/client";
import { closestFace, enrollFace } from "@/lib/faces/gallery";
import { roundScore, type FaceTemplate } from "@/lib/faces/templates";
import type { WorkflowSnapshot } from "@/lib/sessions/present";
import { recordCheckResult } from "@/lib/sessions/record-check";

/**
 * face_uniqueness: 1:N search of the selfie against the app's enrolled
 * faces. A face at or above `decline_threshold` fails the check
 * (`duplicate_face`) and names the existing `svc_uuid`; from `threshold` up
 * to it the check goes to review (`possible_duplicate_face`, the face is not
 * enrolled): at a large gallery strangers reach `threshold` by chance.
 * Otherwise the face is enrolled and its new `svc_uuid` returned. A retry of
 * the same session replaces its own enrollment instead of matching it.
 */
export type UniquenessOutcome = "unique" | "possible_duplicate" | "duplicate";

/** The rule: how close the nearest enrolled face is decides. */
export function uniquenessOutcome(similarity: number | null, settings: { threshold: number; decline_threshold: number }): UniquenessOutcome {
  if (similarity === null || similarity < settings.threshold) return "unique";
  return similarity >= settings.decline_threshold ? "duplicate" : "possible_duplicate";
}
export async function runFaceUniqueness(session: Session, selfie: FaceTemplate) {
  const settings = (session.workflowSnapshot as WorkflowSnapshot).settings.face_uniqueness;
  if (!settings || !session.features.includes("face_uniqueness")) return null;
  const started = performance.now();
  const match = await closestFace(session.appId, selfie, session.id, settings.threshold);
  const outcome = uniquenessOutcome(match?.similarity ?? null, settings);
  const duplicate = outcome !== "unique";
  const svcUuid = duplicate ? match!.svc_uuid : await enrollFace(session.appId, session.id, selfie);
  const similarity = match ? roundScore(match.similarity) : null;
  const thresholds = { threshold: settings.threshold, decline_threshold: settings.decline_threshold };
  const data = duplicate ? { svc_uuid: svcUuid, duplicate: true, similarity, ...thresholds } : { svc_uuid: svcUuid, duplicate: false, enrolled: true, ...thresholds };
  const error =
    outcome === "duplicate"
      ? { code: "duplicate_face", message: `This face is already enrolled for this project as ${svcUuid}` }
      : outcome === "possible_duplicate"
        ? { code: "possible_duplicate_face", message: `This face may already be enrolled for this project as ${svcUuid}; a person will review it` }
        : null;
  const status = outcome === "duplicate" ? "failed" : outcome === "possible_duplicate" ? "review" : "passed";
  await recordCheckResult({
    sessionId: session.id,
    type: "face_uniqueness",
    status,
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
  return { type: "face_uniqueness", status, data, error };
}
