import type { Session } from "@/generated/prisma/client";
import type { LicenceRecord } from "@/lib/licence-registries/types";
import type { HolderName } from "@/lib/licence-registries/types";
import { openJson } from "@/lib/crypto/encryption";
import { db } from "@/lib/db/client";
import { canApproveManually, type CheckOutcome } from "@/lib/decisions/decide";
import { isLivenessFrameKind, LIVENESS_FRAME_PREFIX, type LivenessFrameKind } from "@/lib/artifacts/artifacts";
import type { CheckView } from "./load-session";
import { presentDecision, presentSession } from "./present";
import { canReviewerSettleCheck } from "./review-check";
import { CHECKS_A_REVIEWER_SETTLES, type ReviewerSettledCheck } from "./schemas";

/**
 * What a reviewer (and the portal's session page) sees of a session: its
 * summary, every check of its workflow with score, data, error and when it
 * was recorded, why the decision engine sent it to review, which kept
 * images can be opened, and whether a manual approval is possible (the
 * spec 3.1 rule itself, canApproveManually; the decision still goes through
 * reviewSession, which applies it again). Each check a reviewer may settle
 * (canReviewerSettleCheck; settleCheckInReview applies it again) is listed in
 * `settle`, with the kept images it is judged on in `settle_images`.
 */

/** The kept images a reviewer may open (docs/hosted-flow.md "Image retention"): the document's sides and the best liveness frame. */
export const REVIEW_IMAGE_KINDS = ["document_front", "document_back", "selfie"] as const;
export type ReviewImageKind = (typeof REVIEW_IMAGE_KINDS)[number];

/** An image the portal's image route serves while IN_REVIEW: a kept image or a frame of a liveness burst in review. */
export function isReviewImageKind(kind: string): kind is ReviewImageKind | LivenessFrameKind {
  return (REVIEW_IMAGE_KINDS as readonly string[]).includes(kind) || isLivenessFrameKind(kind);
}

const frameNumber = (kind: string) => Number(kind.slice(LIVENESS_FRAME_PREFIX.length));

/** A borderline check: the engine's reason is its error when it gave one, else its score against its threshold (face match). */
export type ReviewReason = {
  check: string;
  code: string | null;
  message: string | null;
  score: number | null;
  data: Record<string, unknown>;
};

type PresentedCheck = ReturnType<typeof presentDecision>["checks"][number];

export function reviewReasons(checks: readonly PresentedCheck[]): ReviewReason[] {
  return checks
    .filter((c) => c.status === "review")
    .map((c) => {
      const error = c.error as { code?: unknown; message?: unknown } | null;
      return {
        check: c.type,
        code: typeof error?.code === "string" ? error.code : null,
        message: typeof error?.message === "string" ? error.message : null,
        score: "score" in c && typeof c.score === "number" ? c.score : null,
        data: c.data,
      };
    });
}

/**
 * The kept images a reviewer judges each check on, in the order shown:
 * liveness the burst's frames; face match the document (no portrait image is
 * kept, only its template: the front shows it) beside the best liveness
 * frame; the document check its two sides. Only the ones kept.
 */
export function imagesToSettle(check: ReviewerSettledCheck, kept: ReadonlySet<string>): string[] {
  if (check === "liveness") return [...kept].filter(isLivenessFrameKind).sort((a, b) => frameNumber(a) - frameNumber(b));
  const kinds: ReviewImageKind[] = check === "face_match" ? ["document_front", "selfie"] : ["document_front", "document_back"];
  return kinds.filter((kind) => kept.has(kind));
}

type CheckRow = CheckView & { sessionId: string; updatedAt: Date; attempts: number };

/**
 * A licence lookup in review (docs/licences.md): what the
 * person asked for and what the registry holds, so the reviewer can compare
 * the names or look the licence up on the registry's own site. From the
 * session's sealed `licence_record`, shown only while the session is IN_REVIEW.
 */
export type LicenceReview = {
  provider_code: string;
  credential_code: string;
  inputs: Record<string, string>;
  verified_name: string | null;
  registry_name: string | null;
  registry_status: string | null;
  expires_on: string | null;
  looked_up_at: string;
};

const nameOf = (n: HolderName | null | undefined) => (n ? n.full ?? ([n.first, n.last].filter(Boolean).join(" ") || null) : null);

/** The lookup of a credential check in review, when the session kept one. */
function licenceInReview(status: string | undefined, row: { sealed: Uint8Array } | undefined): LicenceReview | null {
  if (status !== "review" || !row) return null;
  const record = openJson<LicenceRecord>(row.sealed);
  return {
    provider_code: record.lookup.provider_code,
    credential_code: record.lookup.credential_code,
    inputs: record.lookup.inputs as Record<string, string>,
    verified_name: nameOf(record.verified_holder),
    registry_name: nameOf(record.licence?.holder),
    registry_status: record.licence?.registry_status ?? null,
    expires_on: record.licence?.expires_on ?? null,
    looked_up_at: record.looked_up_at,
  };
}

export type ReviewItem = Awaited<ReturnType<typeof reviewItems>>[number];

/** The review view of each session (in the given order), with two queries for all of them: check results and kept image kinds. */
export async function reviewItems(sessions: readonly Session[]) {
  const ids = sessions.map((s) => s.id);
  const reviewIds = sessions.filter((s) => s.status === "IN_REVIEW").map((s) => s.id);
  const prisma = await db();
  const [checkRows, imageRows, licenceRows] = await Promise.all([
    ids.length
      ? prisma.checkResult.findMany({
          where: { sessionId: { in: ids } },
          select: { sessionId: true, type: true, status: true, score: true, data: true, error: true, updatedAt: true, attempts: true },
        })
      : [],
    // Images and the licence lookup are offered only while a decision may need them: IN_REVIEW.
    reviewIds.length
      ? prisma.sessionArtifact.findMany({
          where: { sessionId: { in: reviewIds }, OR: [{ kind: { in: [...REVIEW_IMAGE_KINDS] } }, { kind: { startsWith: LIVENESS_FRAME_PREFIX } }] },
          select: { sessionId: true, kind: true },
        })
      : [],
    reviewIds.length
      ? prisma.sessionArtifact.findMany({ where: { sessionId: { in: reviewIds }, kind: "licence_record" }, select: { sessionId: true, sealed: true } })
      : [],
  ]);
  return sessions.map((session) => {
    const rows = (checkRows as CheckRow[]).filter((r) => r.sessionId === session.id);
    const decision = presentDecision(session, rows);
    const byType = new Map(rows.map((r) => [r.type, r]));
    const kept = new Set(imageRows.filter((r) => r.sessionId === session.id).map((r) => r.kind));
    const settle = session.status === "IN_REVIEW" ? CHECKS_A_REVIEWER_SETTLES.filter((type) => canReviewerSettleCheck(byType.get(type))) : [];
    return {
      session: presentSession(session),
      decision: decision.decision,
      checks: decision.checks.map((c) => ({
        ...c,
        recorded_at: byType.get(c.type)?.updatedAt.toISOString() ?? null,
        attempts: byType.get(c.type)?.attempts ?? 0,
      })),
      reasons: reviewReasons(decision.checks),
      images: REVIEW_IMAGE_KINDS.filter((kind) => kept.has(kind)),
      /** The checks in review a reviewer may settle (Confirm live person, Same person, Accept document, or their refusals). */
      settle,
      /** For each check of `settle`, the kept images it is judged on (imagesToSettle). */
      settle_images: Object.fromEntries(settle.map((type) => [type, imagesToSettle(type, kept)])) as Partial<Record<ReviewerSettledCheck, string[]>>,
      licence: licenceInReview(byType.get("credential")?.status, licenceRows.find((r) => r.sessionId === session.id)),
      can_approve: session.status === "IN_REVIEW" && canApproveManually(rows as CheckOutcome[]),
    };
  });
}
