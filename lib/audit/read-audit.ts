import { db } from "@/lib/db/client";
import { describeActor, type ActorView } from "./actors";

export type PresentedAuditEntry = {
  id: string;
  action: string;
  actor: ActorView;
  data: Record<string, unknown>;
  request_id: string | null;
  created_at: string;
};

/** At most this many rows of one session's trail (a session sees one manual decision; the bound is a safety net). */
const TRAIL_LIMIT = 100;

/**
 * The audit trail of one session of an app (its manual decisions, with who,
 * from, to, when and the request id), oldest first, over the
 * `audit_logs (app_id, target, created_at)` index.
 */
export async function sessionAuditTrail(appId: string, sessionId: string): Promise<PresentedAuditEntry[]> {
  const prisma = await db();
  const rows = await prisma.auditLog.findMany({
    where: { appId, target: sessionId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: TRAIL_LIMIT,
  });
  return rows.map((r) => ({
    id: r.id,
    action: r.action,
    actor: describeActor(r.actor),
    data: (r.data ?? {}) as Record<string, unknown>,
    request_id: r.requestId,
    created_at: r.createdAt.toISOString(),
  }));
}
