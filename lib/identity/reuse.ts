import { now } from "@/lib/clock";
import type { Tx } from "@/lib/db/client";
import { ageVerdict } from "@/lib/documents/age-verdict";
import type { FaceTemplate } from "@/lib/faces/templates";
import { saveJsonArtifact } from "@/lib/artifacts/artifacts";
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

/** The writes that give a new session its account's proofs, run in the session's own transaction. */
export type ReusableProofs = { write(tx: Tx): Promise<void> };

/**
 * Reads the account's valid proofs for a session about to be created and
 * returns what to write, or null when nothing is reused. The writes go in
 * the transaction that inserts the session (lib/sessions/create-session.ts),
 * with the Idempotency-Key's stored answer: a session never exists, nor is
 * its answer replayed, without the proofs it was created with.
 */
export async function reusableProofsFor(session: ReusableSession, at: Date = now()): Promise<ReusableProofs | null> {
  if (!reuseAllowed(session)) return null;
  const profile = await readProfile(session.accountId!, at);
  const document = profile.document;
  if (document?.state !== "valid") return null;
  // Face match needs a reference face: without a valid enrolled face the document (and its portrait) is asked again.
  const enrolledFace = profile.face?.state === "valid" ? profile.face : null;
  if (session.features.includes("face_match") && !enrolledFace) return null;
  const age = session.features.includes("age") ? session.settings.age : undefined;
  const origin = { source: "account_proof", proof_session_id: document.sourceSessionId, proof_verified_at: document.verifiedAt.toISOString() };
  return {
    async write(tx: Tx) {
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
      if (age) {
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
      }
      if (session.features.includes("face_match") && enrolledFace) {
        const portrait: FaceReference = { ...enrolledFace.content, reference: "enrolled_face" };
        await saveJsonArtifact(session.id, "portrait_template", portrait, tx);
      }
    },
  };
}
