import type { Session } from "@/generated/prisma/client";
import type { CheckView } from "./load-session";
import type { WorkflowSettings } from "@/lib/workflows/settings";
import { openCheckData } from "@/lib/sessions/location-fix";
import { wasReused } from "@/lib/identity/proofs";
import { isTerminal } from "./statuses";

export type WorkflowSnapshot = { id: string; name: string; features: string[]; settings: WorkflowSettings };

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The session summary (list, retrieve, status update). */
export function presentSession(s: Session) {
  const workflow = s.workflowSnapshot as WorkflowSnapshot;
  return {
    session_id: s.id,
    status: s.status,
    workflow_id: s.workflowId,
    workflow: { id: s.workflowId, name: workflow.name },
    features: s.features,
    vendor_data: s.vendorData,
    redirect_url: s.redirectUrl,
    callback: s.callbackUrl,
    metadata: s.metadata,
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
export function presentCheck(type: string, result: CheckView | undefined, sessionOpen: boolean) {
  if (!result) {
    return { type, status: sessionOpen ? "pending" : "not_performed", data: {}, error: null };
  }
  return {
    type,
    status: result.status,
    ...(result.score === null ? {} : { score: result.score }),
    data: openCheckData(type, result.data),
    error: (result.error as Record<string, unknown> | null) ?? null,
  };
}

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

export type DecisionIdentity = Record<string, unknown> | null;

/** The authoritative decision (spec 2.2); `identity` comes from lib/identity/read-identity.ts decisionIdentity. */
export function presentDecision(s: Session, results: CheckView[], identity: DecisionIdentity = null) {
  const byType = new Map(results.map((r) => [r.type, r]));
  const open = !isTerminal(s.status) && s.status !== "IN_REVIEW";
  const checks = s.features.map((type) => presentCheck(type, byType.get(type), open));
  return {
    session_id: s.id,
    status: s.status,
    vendor_data: s.vendorData,
    svc_id: s.accountId,
    origin: resultOrigin(results),
    decision: open ? "pending" : s.status.toLowerCase(),
    checks,
    verifications: Object.fromEntries(checks.map((c) => [c.type, { status: c.status }])),
    identity,
    decided_at: iso(s.decidedAt),
  };
}
