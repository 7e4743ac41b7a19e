import sharp from "sharp";
import { createSession, type Tenant } from "./api";

/**
 * Sessions in a given state for the portal's sessions and review-queue
 * tests, made the way the product makes them: created over the API, then
 * (through the domain layer, as the check executors do; the public API has
 * no such shortcut) check results recorded, the kept images saved sealed,
 * and the session finished by the decision engine. The test file must call
 * useServerDatabase() (tests/support/domain.ts).
 */
export type CheckStatus = "passed" | "failed" | "review";

export const KYC = ["id_verification", "liveness", "face_match"] as const;

/** A solid-colour image: JPEG by default, PNG when asked (so the served type can be checked against the bytes). */
export async function solidImage(colour: { r: number; g: number; b: number }, format: "jpeg" | "png" = "jpeg"): Promise<Buffer> {
  const image = sharp({ create: { width: 64, height: 40, channels: 3, background: colour } });
  return format === "png" ? image.png().toBuffer() : image.jpeg().toBuffer();
}

export type KeptImages = { document_front: Buffer; document_back: Buffer; selfie: Buffer };

export async function keptImages(): Promise<KeptImages> {
  const [document_front, document_back, selfie] = await Promise.all([
    solidImage({ r: 200, g: 40, b: 40 }),
    solidImage({ r: 40, g: 160, b: 60 }, "png"),
    solidImage({ r: 30, g: 60, b: 200 }),
  ]);
  return { document_front, document_back, selfie };
}

/**
 * A session of `workflowId` with these check results, finished by the
 * decision engine (so a `review` result puts it IN_REVIEW), with the kept
 * images saved while it was open, as the hosted flow saves them.
 * face_match results carry the engine's similarity and threshold.
 */
export async function seedSession(
  tenant: Pick<Tenant, "apiKey">,
  workflowId: string,
  options: {
    vendorData?: string;
    results: Record<string, CheckStatus>;
    images?: KeptImages | null;
    finish?: boolean;
    licenceRecord?: object;
    /** The frames of a liveness burst in review, kept as the liveness step keeps them. */
    livenessFrames?: Buffer[];
  },
): Promise<string> {
  const { recordCheckResult } = await import("@/lib/sessions/record-check");
  const { completeSession } = await import("@/lib/sessions/complete-session");
  const { saveArtifact } = await import("@/lib/artifacts/artifacts");
  const s = await createSession(tenant, { workflow_id: workflowId, ...(options.vendorData ? { vendor_data: options.vendorData } : {}) });
  for (const [type, status] of Object.entries(options.results)) {
    const score = status === "passed" ? 0.91 : status === "review" ? 0.58 : 0.2;
    await recordCheckResult({
      sessionId: s.session_id,
      type: type as never,
      status,
      score,
      data: type === "face_match" ? { similarity: score, threshold: 0.61 } : {},
    });
  }
  if (options.images) {
    await saveArtifact(s.session_id, "document_front", options.images.document_front, "image/jpeg");
    await saveArtifact(s.session_id, "document_back", options.images.document_back, "image/png");
    await saveArtifact(s.session_id, "selfie", options.images.selfie, "image/jpeg");
  }
  if (options.livenessFrames) await (await import("@/lib/artifacts/artifacts")).keepLivenessFrames(s.session_id, options.livenessFrames.map((bytes) => ({ bytes })));
  // A licence lookup the credential step kept (lib/credentials/run-credential-check.ts LicenceRecord).
  if (options.licenceRecord) await (await import("@/lib/artifacts/artifacts")).saveJsonArtifact(s.session_id, "licence_record", options.licenceRecord);
  if (options.finish ?? true) await completeSession(s.session_id);
  return s.session_id;
}

/** IN_REVIEW with id_verification, liveness and face_match: approvable when `approvable` (the borderline check is then `age`). */
export function reviewResults(approvable: boolean): Record<string, CheckStatus> {
  return approvable
    ? { id_verification: "passed", liveness: "passed", face_match: "passed", age: "review" }
    : { id_verification: "passed", liveness: "passed", face_match: "review", age: "passed" };
}
