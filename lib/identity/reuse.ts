import { now } from "@/lib/clock";
import { db, type Tx } from "@/lib/db/client";
import { ageVerdict } from "@/lib/checks/age-verdict";
import type { FaceTemplate } from "@/lib/faces/templates";
import { saveJsonArtifact } from "@/lib/sessions/artifacts";
import type { WorkflowSettings } from "@/lib/workflows/settings";
import { readProfile } from "./profile";

/**
 * Reuse (Reusable Verification, spec 1.2): a session bound to an account
 * whose profile holds a valid document proof (not expired, not stale) does
 * not ask for the document again. At creation:
 *   - `id_verification` is recorded passed with `data.reused: true`;
 *   - `age` is derived from the stored date of birth;
 *   - `face_match` will compare the new liveness frame with the account's
 *     enrolled face instead of a document portrait (without a valid enrolled
 *     face, nothing is reused: the document's portrait is needed).
 * Liveness is never reused: a live person must be present now. Reused checks
 * are free (the company paid for them once). A workflow with
 * `settings.session.reuse_proofs: false` always runs fresh.
 */
export type ReusableSession = {
  id: string;
  accountId: string | null;
  features: readonly string[];
  settings: WorkflowSettings;
};

/** Whether a session may reuse its account's proofs at all. */
export function reuseAllowed(session: ReusableSession): boolean {
  return Boolean(session.accountId) && session.settings.session.reuse_proofs !== false && session.features.includes("id_verification");
}

export type FaceReference = FaceTemplate & { reference?: "document" | "enrolled_face" };

/** Applies the account's valid proofs to a new session; returns the check types it filled. */
export async function applyReusableProofs(session: ReusableSession, at: Date = now()): Promise<string[]> {
  if (!reuseAllowed(session)) return [];
  const profile = await readProfile(session.accountId!, at);
  const document = profile.document;
  if (document?.state !== "valid") return [];
  // Face match needs a reference face: without a valid enrolled face the document (and its portrait) is asked again.
  const enrolledFace = profile.face?.state === "valid" ? profile.face : null;
  if (session.features.includes("face_match") && !enrolledFace) return [];
  const reused = ["id_verification"];
  const origin = { source: "account_proof", proof_session_id: document.sourceSessionId, proof_verified_at: document.verifiedAt.toISOString() };
  const prisma = await db();
  await prisma.$transaction(async (tx: Tx) => {
    await tx.checkResult.create({
      data: {
        sessionId: session.id,
        type: "id_verification",
        status: "passed",
        score: 1,
        data: { reused: true, document_type: document.content.document_type, verified_at: document.verifiedAt.toISOString() },
        evidence: origin,
      },
    });
    const age = session.settings.age;
    if (session.features.includes("age") && age) {
      const verdict = ageVerdict(document.content.date_of_birth, age.minimum_age, at);
      await tx.checkResult.create({
        data: {
          sessionId: session.id,
          type: "age",
          status: verdict.status,
          data: { ...verdict.data, reused: true },
          error: verdict.error ?? undefined,
          evidence: origin,
        },
      });
      reused.push("age");
    }
    if (session.features.includes("face_match") && enrolledFace) {
      const portrait: FaceReference = { ...enrolledFace.content, reference: "enrolled_face" };
      await saveJsonArtifact(session.id, "portrait_template", portrait, tx);
    }
  });
  return reused;
}
