import type { Session } from "@/generated/prisma/client";
import type { CheckView } from "./load-session";
import type { WorkflowSettings } from "@/lib/workflows/settings";
import { openCheckData } from "@/lib/sessions/location-fix";
import { wasReused } from "@/lib/identity/proofs";
import { CHECK_STATUSES, storedFeature, storedSessionStatus, vocabularyValue, type Feature, type SessionStatus } from "@/lib/contract-vocabulary";
import { isTerminal } from "./statuses";

export type WorkflowSnapshot = { id: string; name: string; features: string[]; settings: WorkflowSettings };

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The session's status and features as the contract's values. */
const statusOf = (s: Pick<Session, "status">) => storedSessionStatus(s.status);
const featuresOf = (s: Pick<Session, "features">) => s.features.map(storedFeature);

/** The session summary (list, retrieve, status update). */
export function presentSession(s: Session) {
  const workflow = s.workflowSnapshot as WorkflowSnapshot;
  return {
    session_id: s.id,
    status: statusOf(s),
    workflow_id: s.workflowId,
    workflow: { id: s.workflowId, name: workflow.name },
    features: featuresOf(s),
    vendor_data: s.vendorData,
    redirect_url: s.redirectUrl,
    callback: s.callbackUrl,
    language: s.language,
    metadata: s.metadata as Record<string, unknown>,
    // The bound account's id is its public svc_id (Reusable Verification).
    svc_id: s.accountId,
    created_at: s.createdAt.toISOString(),
    updated_at: s.updatedAt.toISOString(),
    started_at: iso(s.startedAt),
    completed_at: iso(s.completedAt),
    decided_at: iso(s.decidedAt),
    expires_at: s.expiresAt.toISOString(),
  };
}

/** A check object (spec 2.2): `type`, `status`, `score?`, `data?`, `error`. */
export function presentCheck(type: Feature, result: CheckView | undefined, sessionOpen: boolean): PresentedCheck {
  if (!result) {
    return { type, status: sessionOpen ? "pending" : "not_performed", data: {}, error: null };
  }
  return {
    type,
    status: vocabularyValue(CHECK_STATUSES, result.status, "check status"),
    ...(result.score === null ? {} : { score: result.score }),
    data: openCheckData(type, result.data) as Record<string, unknown>,
    error: (result.error as CheckError | null) ?? null,
  };
}

/** A check's error as stored (lib/checks: `{ code, message }`, and the browser's `reason` for location). */
export type CheckError = { code: string; message: string; reason?: string };

export type PresentedCheck = {
  type: Feature;
  status: (typeof CHECK_STATUSES)[number];
  score?: number;
  data: Record<string, unknown>;
  error: CheckError | null;
};

/**
 * How the result was obtained (spec 2.2 `origin`): `fresh` when every check
 * that ran was performed in this session, `reused` when every one came from
 * the account's proofs, `mixed` when both (a reused document with a live
 * liveness check: liveness is never reused).
 */
export function resultOrigin(results: readonly Pick<CheckView, "status" | "data">[]): "fresh" | "reused" | "mixed" {
  const ran = results.filter((r) => r.status !== "not_performed");
  const reused = ran.filter((r) => wasReused(r.data)).length;
  if (reused === 0) return "fresh";
  return reused === ran.length ? "reused" : "mixed";
}


/** The authoritative decision (spec 2.2); `identity` comes from lib/identity/read-identity.ts decisionIdentity. */
export function presentDecision<I extends object | null = null>(s: Session, results: CheckView[], identity: I = null as I) {
  const byType = new Map(results.map((r) => [r.type, r]));
  const open = !isTerminal(s.status) && s.status !== "IN_REVIEW";
  const checks = featuresOf(s).map((type) => presentCheck(type, byType.get(type), open));
  return {
    session_id: s.id,
    status: statusOf(s),
    vendor_data: s.vendorData,
    svc_id: s.accountId,
    origin: resultOrigin(results),
    decision: open ? ("pending" as const) : (statusOf(s).toLowerCase() as Lowercase<Exclude<SessionStatus, "NOT_STARTED" | "IN_PROGRESS">>),
    checks,
    verifications: Object.fromEntries(checks.map((c) => [c.type, { status: c.status }])),
    identity,
    decided_at: iso(s.decidedAt),
  };
}
