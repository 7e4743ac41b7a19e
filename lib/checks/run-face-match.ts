import type { Session } from "@/generated/prisma/client";
import { roundScore, templateSimilarity, type FaceTemplate } from "@/lib/faces/templates";
import type { FaceReference } from "@/lib/identity/reuse";
import { loadJsonArtifact } from "@/lib/artifacts/artifacts";
import type { WorkflowSnapshot } from "@/lib/sessions/present";
import { recordCheckResult } from "@/lib/sessions/record-check";
import type { RanStatus } from "@/lib/contract-vocabulary";
import type { RanCheck } from "./step-check";
import { faceMatchStatus } from "./face-match-verdict";

/**
 * face_match: the document portrait (or, when the session reuses the
 * account's proofs, its enrolled face: `data.reference`) against the best
 * liveness frame (or the selfie), once both templates exist; re-run whenever either is replaced (a
 * retaken document or a new burst). Billed once per session.
 *
 * A session that carries an account's enrolled face (account recovery,
 * lib/org/recovery/; a burst sent to POST /api/v2/antispoof/identity,
 * ./run-identity-burst.ts) matches the selfie against it as soon as the
 * selfie exists, never against a document alone; once a fresh document is
 * there (recovery `with_id`, a workflow with id_verification) its portrait
 * must match the selfie as well, and the worse of the two decides.
 *
 * `enrolledFace`: the account's enrolled face to match against from now on;
 * it is kept with the result (the session's `enrolled_template`), so a
 * re-run (a new document) matches against it too.
 */
const SEVERITY: Record<string, number> = { passed: 0, review: 1, failed: 2 };
const worse = (a: RanStatus, b: RanStatus) => ((SEVERITY[a] ?? 0) >= (SEVERITY[b] ?? 0) ? a : b);

export type FaceMatchCheck = RanCheck<"face_match"> & { score: number };

export async function runFaceMatchIfReady(session: Session, options: { enrolledFace?: FaceTemplate } = {}): Promise<FaceMatchCheck | null> {
  const settings = (session.workflowSnapshot as WorkflowSnapshot).settings.face_match;
  if (!settings || !session.features.includes("face_match")) return null;
  const [portrait, selfie, enrolledBefore] = await Promise.all([
    loadJsonArtifact<FaceReference>(session.id, "portrait_template"),
    loadJsonArtifact<FaceTemplate>(session.id, "selfie_template"),
    options.enrolledFace ? null : loadJsonArtifact<FaceTemplate>(session.id, "enrolled_template"),
  ]);
  const enrolled = options.enrolledFace ?? enrolledBefore;
  if (!selfie || (!enrolled && !portrait)) return null;
  const started = performance.now();
  const reference = enrolled ? "enrolled_face" : (portrait!.reference ?? "document");
  const similarity = roundScore(templateSimilarity(enrolled ?? portrait!, selfie));
  // A reused session's `portrait_template` is the enrolled face itself (lib/identity/reuse.ts): no document to match as well.
  const documentPortrait = portrait?.reference === "enrolled_face" ? null : portrait;
  const documentSimilarity = enrolled && documentPortrait ? roundScore(templateSimilarity(documentPortrait, selfie)) : null;
  const againstReference = faceMatchStatus(similarity, settings);
  const status = documentSimilarity === null ? againstReference : worse(againstReference, faceMatchStatus(documentSimilarity, settings));
  const error =
    status !== "failed"
      ? null
      : againstReference === "failed"
        ? { code: "face_mismatch", message: reference === "document" ? "The face does not match the document portrait" : "The face does not match the face enrolled on this account" }
        : { code: "face_mismatch", message: "The face does not match the new document's portrait" };
  const data = { similarity, threshold: settings.threshold, reference, ...(documentSimilarity !== null ? { document_similarity: documentSimilarity } : {}) };
  await recordCheckResult({
    sessionId: session.id,
    type: "face_match",
    status,
    score: similarity,
    data,
    error,
    ...(options.enrolledFace ? { artifacts: { enrolled_template: options.enrolledFace } } : {}),
    evidence: {
      portrait_sha256: portrait?.source_sha256 ?? null,
      enrolled_sha256: enrolled?.source_sha256 ?? null,
      selfie_sha256: selfie.source_sha256,
      model: selfie.model,
      review_margin: settings.review_margin,
      compare_ms: Math.round((performance.now() - started) * 100) / 100,
    },
  });
  return { type: "face_match" as const, status, score: similarity, data, error };
}
