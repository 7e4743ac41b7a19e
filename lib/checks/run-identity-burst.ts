import type { Session } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { ApiError } from "@/lib/http/api-error";
import type { Upload } from "@/lib/http/read-upload";
import { validEnrolledFace } from "@/lib/identity/profile";
import { submitLivenessBurst, type StepCheck } from "./run-liveness";

/** What the identity burst records: a liveness check and a face match, each billed once per session. */
export const IDENTITY_BURST_CHECKS = ["liveness", "face_match"] as const;

/**
 * POST /api/v2/antispoof/identity (spec 4.3; docs/hosted-flow.md "Hosted-flow API"): in a
 * session bound to an account (`svc_access_token`), a liveness burst (the
 * same challenge and frames as POST /api/v2/antispoof) whose best frame is
 * matched 1:1 against the account's enrolled face, with the workflow's
 * face-match settings. Refused before the burst is judged (the challenge
 * stays usable): an unbound session 400 `invalid_session`, a workflow
 * without both liveness and face_match 400 `invalid_request`, an account
 * without a valid enrolled face 409 `face_not_enrolled`. Then as POST
 * /api/v2/antispoof (liveness, face match against the enrolled face, face
 * uniqueness when the workflow has it; each billed once per session), except
 * that a face match that failed (or could not run) answers 403
 * `face_not_matched` with the recorded checks in `data.checks`. A borderline
 * match (`review`) is answered 200: a reviewer decides.
 */
export async function submitIdentityBurst(session: Session, upload: Upload): Promise<{ checks: StepCheck[] }> {
  if (!session.accountId) {
    throw new ApiError("invalid_session", {
      message: "This session is not bound to an account (create it with svc_access_token); use POST /api/v2/antispoof",
    });
  }
  const missing = IDENTITY_BURST_CHECKS.filter((type) => !session.features.includes(type));
  if (missing.length) {
    throw new ApiError("invalid_request", { message: `This session's workflow has no ${missing.join(" or ")} check: the identity burst records liveness and face_match` });
  }
  const enrolledFace = await validEnrolledFace(session.accountId, now());
  if (!enrolledFace) {
    throw new ApiError("face_not_enrolled", { message: "The account has no valid enrolled face to match: use POST /api/v2/antispoof" });
  }
  const answer = await submitLivenessBurst(session, upload, { enrolledFace });
  if (!faceMatched(answer.checks)) {
    throw new ApiError("face_not_matched", { message: "The live face is not the face enrolled on this account", data: { checks: answer.checks } });
  }
  return answer;
}

/** The rule: the identity is confirmed unless the face match failed or did not run (a borderline one goes to review). */
export function faceMatched(checks: readonly StepCheck[]): boolean {
  const match = checks.find((c) => c.type === "face_match");
  return match !== undefined && match.status !== "failed";
}
