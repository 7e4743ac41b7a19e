import type { Session } from "@/generated/prisma/client";
import { roundScore, templateSimilarity, type FaceTemplate } from "@/lib/faces/templates";
import type { FaceReference } from "@/lib/identity/reuse";
import { loadJsonArtifact } from "@/lib/sessions/artifacts";
import type { WorkflowSnapshot } from "@/lib/sessions/present";
import { recordCheckResult } from "@/lib/sessions/record-check";
import { faceMatchStatus } from "./face-match-verdict";

/**
 * face_match: the document portrait (or, when the session reuses the
 * account's proofs, its enrolled face: `data.reference`) against the best
 * liveness frame (or the selfie), once both templates exist; re-run whenever either is replaced (a
 * retaken document or a new burst). Billed once per session.
 */
export async function runFaceMatchIfReady(session: Session) {
  const settings = (session.workflowSnapshot as WorkflowSnapshot).settings.face_match;
  if (!settings || !session.features.includes("face_match")) return null;
  const [portrait, selfie] = await Promise.all([
    loadJsonArtifact<FaceReference>(session.id, "portrait_template"),
    loadJsonArtifact<FaceTemplate>(session.id, "selfie_template"),
  ]);
  if (!portrait || !selfie) return null;
  const started = performance.now();
  const similarity = roundScore(templateSimilarity(portrait, selfie));
  const status = faceMatchStatus(similarity, settings);
  const reference = portrait.reference ?? "document";
  const error =
    status === "failed"
      ? { code: "face_mismatch", message: reference === "document" ? "The face does not match the document portrait" : "The face does not match the face enrolled on this account" }
      : null;
  const data = { similarity, threshold: settings.threshold, reference };
  await recordCheckResult({
    sessionId: session.id,
    type: "face_match",
    status: status as "passed" | "failed" | "review",
    score: similarity,
    data,
    error,
    evidence: {
      portrait_sha256: portrait.source_sha256,
      selfie_sha256: selfie.source_sha256,
      model: selfie.model,
      review_margin: settings.review_margin,
      compare_ms: Math.round((performance.now() - started) * 100) / 100,
    },
  });
  return { type: "face_match", status, score: similarity, data, error };
}
