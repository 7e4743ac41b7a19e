import { listRecoveryLog, type RecoveryLogEntry } from "@/lib/org/recovery/recovery-log";

/**
 * The portal's recovery log (`/dashboard/recovery`): the organization's log
 * as `listRecoveryLog` reads it, with the app of each recovery session (the
 * app that asked, one of the organization's), so the page can link the
 * session to its page in the portal (`/dashboard/apps/{app}/sessions/{id}`).
 */
export type PortalRecoveryEntry = RecoveryLogEntry & { session_app_id: string | null };

export async function listPortalRecoveryLog(organizationId: string): Promise<{ entries: PortalRecoveryEntry[] }> {
  const entries = await listRecoveryLog(organizationId);
  return { entries: entries.map((e) => ({ ...e, session_app_id: e.session_id ? e.app_id : null })) };
}
