import { db } from "@/lib/db/client";
import { listRecoveryLog, type RecoveryLogEntry } from "@/lib/org/recovery/recovery-log";

/**
 * The portal's recovery log (`/dashboard/recovery`): the organization's log
 * as `listRecoveryLog` reads it, plus, for each recovery session, the app it
 * belongs to when that app is the organization's, so the page can link the
 * session to its page in the portal (`/dashboard/apps/{app}/sessions/{id}`).
 */
export type PortalRecoveryEntry = RecoveryLogEntry & { session_app_id: string | null };

export async function listPortalRecoveryLog(organizationId: string): Promise<{ entries: PortalRecoveryEntry[] }> {
  const entries = await listRecoveryLog(organizationId);
  const sessionIds = entries.map((e) => e.session_id).filter((id): id is string => Boolean(id));
  const prisma = await db();
  const sessions = sessionIds.length
    ? await prisma.session.findMany({ where: { id: { in: sessionIds }, app: { organizationId } }, select: { id: true, appId: true } })
    : [];
  const appOf = new Map(sessions.map((s) => [s.id, s.appId]));
  return { entries: entries.map((e) => ({ ...e, session_app_id: e.session_id ? (appOf.get(e.session_id) ?? null) : null })) };
}
