import type { StepCheck } from "./step-check";
import { vocabularyValue } from "@/lib/contract-vocabulary";
import { z } from "zod";
import type { Session } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { readDocument, type DocumentReading } from "@/lib/documents/read-document";
import type { FaceTemplate } from "@/lib/faces/templates";
import { ApiError } from "@/lib/http/api-error";
import type { Upload } from "@/lib/http/read-upload";
import { parseOrThrow } from "@/lib/http/validation";
import { saveArtifact, saveJsonArtifact, sha256Hex } from "@/lib/artifacts/artifacts";
import type { WorkflowSnapshot } from "@/lib/sessions/present";
import { recordCheckResult } from "@/lib/sessions/record-check";
import { VisionUnavailableError } from "@/lib/vision/pool";
import { DOCUMENT_TYPES } from "@/lib/workflows/settings";
import { holderOf } from "@/lib/licence-registries/holder-name";
import { rejudgeLicenceAfterDocument } from "@/lib/credentials/rejudge-after-document";
import { ageVerdict } from "@/lib/documents/age-verdict";
import { documentVerdict } from "./document-verdict";
import { runFaceMatchIfReady } from "./run-face-match";
import { isFinalFailure, stopAtDecisiveFailure } from "./stop-at-decisive-failure";

/** The upload's text field (the images are its file parts, read by lib/http/read-upload.ts). */
export const DocumentFields = z.strictObject({
  document_type: z.enum(DOCUMENT_TYPES).meta({ description: "The kind of document: one the workflow accepts." }),
});

const RETAKE_HINT: Record<string, string> = {
  barcode_not_found: "We could not read the barcode on the back. Retake it flat, in good light, with the whole card in the frame",
  mrz_not_found: "We could not read the machine-readable lines at the bottom of the document. Retake it flat, in good light, without glare",
};

/**
 * POST /api/v2/document: the document step. multipart fields
 * `document_type` (passport | id_card | driving_licence), `front` (the side
 * with the portrait; a passport's data page) and `back` (licences and ID
 * cards: the barcode or MRZ side).
 *
 * Input the person should retake is refused and not counted: 422
 * `invalid_image` (not an image, or no barcode/MRZ found: `data.reason`),
 * 422 `no_face` / `face_rescan_required` (no clear portrait on the front).
 * A document that was read is recorded as the id_verification check
 * (billed once per session; a retake replaces it):
 * - `failed`: a licence's or ID card's front whose printed fields disagree
 *   with its barcode or MRZ (`document_inconsistent`), expired, or check
 *   digits that do not add up on a confident read;
 * - `review`: a read below the workflow's `min_read_confidence` (a doubtful
 *   OCR, a missing field, check digits failing on a doubtful read), or a
 *   front that could not be compared with the back (`front_unreadable`) or
 *   whose date is one digit away from it (`front_uncertain`): never a pass
 *   on the barcode or MRZ alone;
 * - `passed`: read, check digits valid, not expired, portrait found, the
 *   front agreeing with the back (licences and ID cards).
 * The age check (when the workflow has it) follows from the date of birth,
 * and face match runs once the liveness selfie exists. A `failed` document
 * or age decides the session DECLINED right here (./stop-at-decisive-failure.ts):
 * `session_status` says so, and later steps are refused.
 */
export async function submitDocument(session: Session, upload: Upload) {
  const settings = (session.workflowSnapshot as WorkflowSnapshot).settings;
  const idSettings = settings.id_verification;
  if (!idSettings || !session.features.includes("id_verification")) {
    throw new ApiError("invalid_request", { message: "This session has no document step" });
  }
  const { document_type: documentType } = parseOrThrow(DocumentFields, upload.fields, "body");
  if (!idSettings.allowed_documents.includes(documentType)) {
    throw new ApiError("invalid_request", {
      message: `This verification accepts ${idSettings.allowed_documents.join(", ")}, not ${documentType}`,
      data: { allowed_documents: idSettings.allowed_documents },
    });
  }
  const front = upload.files.find((f) => f.field === "front");
  const back = upload.files.find((f) => f.field === "back");
  if (!front) throw new ApiError("invalid_image", { message: "Send the front of the document as the image file field \"front\"", data: { field: "front" } });
  if (documentType !== "passport" && !back) {
    throw new ApiError("invalid_image", { message: `A ${documentType.replace("_", " ")} needs its back too (the image file field "back")`, data: { field: "back" } });
  }

  let reading: DocumentReading;
  try {
    reading = await readDocument({ documentType, front: front.bytes, back: back?.bytes, today: now() });
  } catch (err) {
    if (err instanceof VisionUnavailableError) {
      throw new ApiError("feature_failed", { message: "The document engine could not read this now; try again" });
    }
    throw err;
  }
  if (!reading.checks.read) {
    const reason = reading.problems.find((p) => p in RETAKE_HINT) ?? "unreadable";
    throw new ApiError("invalid_image", {
      status: 422,
      message: RETAKE_HINT[reason] ?? "We could not read this document; retake it in good light",
      data: { field: documentType === "passport" ? "front" : "back", reason },
    });
  }
  if (!reading.portrait) {
    const unclear = reading.problems.includes("portrait_unclear");
    throw new ApiError(unclear ? "face_rescan_required" : "no_face", {
      message: unclear
        ? "The photo on the document is not clear enough: retake the front in good light, without glare"
        : "We could not find the photo on the front of the document: retake the side with your photo",
      data: { field: "front" },
    });
  }

  const frontSha = sha256Hex(front.bytes);
  const { status, error } = documentVerdict(reading, idSettings.min_read_confidence);
  const idData = {
    reused: false,
    document_type: documentType,
    source: reading.source,
    confidence: Math.round(reading.confidence * 1000) / 1000,
    checks: reading.checks,
    // Which of the front's fields disagree with the back (names of fields, never their values).
    front_mismatched_fields: reading.consistency?.mismatched ?? [],
  };
  const evidence = {
    front_sha256: frontSha,
    back_sha256: back ? sha256Hex(back.bytes) : null,
    models: reading.models,
    timings_ms: reading.timings_ms,
    problems: reading.problems,
    // How each field compared (match / near / mismatch / unread), never the values.
    front_consistency: reading.consistency,
  };
  await recordCheckResult({ sessionId: session.id, type: "id_verification", status, score: reading.confidence, data: idData, error, evidence });

  const portrait: FaceTemplate = { embedding: reading.portrait.embedding, model: reading.models.faces ?? "unknown", source_sha256: frontSha };
  await Promise.all([
    saveArtifact(session.id, "document_front", front.bytes, front.type || "image/jpeg"),
    back ? saveArtifact(session.id, "document_back", back.bytes, back.type || "image/jpeg") : null,
    saveJsonArtifact(session.id, "portrait_template", portrait),
    saveJsonArtifact(session.id, "document_fields", { document_type: documentType, ...reading.fields }),
  ]);
  await rejudgeLicenceAfterDocument(session, holderOf(reading.fields));

  const checks: StepCheck[] = [{ type: "id_verification", status, score: reading.confidence, data: idData, error }];
  // A failed document decides the session: the age it gives is neither run nor billed.
  if (session.features.includes("age") && settings.age && status !== "failed") {
    const age = ageVerdict(reading.fields.date_of_birth, settings.age.minimum_age, now());
    const ageStatus = status === "review" ? "review" : age.status;
    await recordCheckResult({
      sessionId: session.id,
      type: "age",
      status: ageStatus,
      data: age.data,
      error: age.error,
      evidence: { source: "id_verification", document_sha256: frontSha, read_confidence: reading.confidence },
    });
    checks.push({ type: "age", status: ageStatus, data: age.data, error: age.error });
  }
  // A failed document or an age under the minimum decides the session here: no face match, no later step.
  // Only a failure recorded just now can (a failed document ends the session), so a passing document takes no lock for it.
  const failedNow = checks.some(isFinalFailure);
  const stopped = failedNow ? await stopAtDecisiveFailure(session) : null;
  // A final failure declines the session whatever follows (stop-at-decisive-failure.ts).
  if (stopped) return { checks, session_status: vocabularyValue(["DECLINED"], stopped.status, "stopped session's status") };
  const faceMatch = await runFaceMatchIfReady(session);
  if (faceMatch) checks.push(faceMatch);
  return { checks, session_status: "IN_PROGRESS" as const };
}
