import { db } from "@/lib/db/client";

/**
 * The recovery log of an organization (the portal's "Recovery" page): who
 * (the member, when one matched), when, which variant, and the outcome: the
 * recovery session's status (NOT_STARTED, IN_PROGRESS, APPROVED, DECLINED,
 * IN_REVIEW, EXPIRED, ABANDONED) or `not_eligible` when no session started.
 */
export type RecoveryLogEntry = {
  id: string;
  /** The app (of this organization) that asked; a recovery session belongs to it. */
  app_id: string;
  created_at: string;
  member_id: string | null;
  email: string | null;
  variant: "with_id" | "without_id";
  eligible: boolean;
  session_id: string | null;
  outcome: string;
};

export async function listRecoveryLog(organizationId: string, limit = 100): Promise<RecoveryLogEntry[]> {
  const prisma = await db();
  const rows = await prisma.recoveryRequest.findMany({ where: { organizationId }, orderBy: { createdAt: "desc" }, take: Math.min(Math.max(limit, 1), 500) });
  const memberIds = [...new Set(rows.map((r) => r.memberId).filter((m): m is string => Boolean(m)))];
  const sessionIds = rows.map((r) => r.sessionId).filter((s): s is string => Boolean(s));
  const [members, sessions] = await Promise.all([
    prisma.member.findMany({ where: { organizationId, memberId: { in: memberIds } }, select: { memberId: true, email: true } }),
    prisma.session.findMany({ where: { id: { in: sessionIds } }, select: { id: true, status: true } }),
  ]);
  const emailOf = new Map(members.map((m) => [m.memberId, m.email]));
  const statusOf = new Map(sessions.map((s) => [s.id, s.status]));
  return rows.map((r) => ({
    id: r.id,
    app_id: r.appId,
    created_at: r.createdAt.toISOString(),
    member_id: r.memberId,
    email: r.memberId ? (emailOf.get(r.memberId) ?? null) : null,
    variant: r.variant as RecoveryLogEntry["variant"],
    eligible: r.eligible,
    session_id: r.sessionId,
    outcome: r.sessionId ? (statusOf.get(r.sessionId) ?? "EXPIRED") : "not_eligible",
  }));
}
