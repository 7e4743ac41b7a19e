import type { App } from "@/generated/prisma/client";
import { sessionAuditTrail } from "@/lib/audit/read-audit";
import { findSession } from "./find-session";
import { reviewItems } from "./review-view";

/**
 * One session for the portal's session page: the review view (summary with
 * its timestamps, checks with scores and when each was recorded, the
 * engine's reasons, kept images while IN_REVIEW) and its audit trail.
 * Another app's session, or an unknown id, is 404 `session_not_found`.
 */
export async function getSessionDetail(app: App, id: string) {
  const session = await findSession(app, id);
  const [[item], audit] = await Promise.all([reviewItems([session]), sessionAuditTrail(app.id, session.id)]);
  return { ...item!, audit };
}
export type SessionDetail = Awaited<ReturnType<typeof getSessionDetail>>;
