import type { Tx } from "@/lib/db/client";

export type AuditEntry = {
  organizationId: string;
  appId?: string;
  actor: string;
  action: string;
  target?: string;
  data?: Record<string, unknown>;
  requestId?: string;
};

/** One audit-log row, in the caller's transaction. */
export async function recordAudit(tx: Tx, entry: AuditEntry) {
  await tx.auditLog.create({
    data: {
      organizationId: entry.organizationId,
      appId: entry.appId ?? null,
      actor: entry.actor,
      action: entry.action,
      target: entry.target ?? null,
      data: (entry.data ?? {}) as object,
      requestId: entry.requestId ?? null,
    },
  });
}
