import type { z } from "zod";
import type { App } from "@/generated/prisma/client";
import { decisionIdentity } from "@/lib/identity/read-identity";
import { expireDueSessions } from "./expire-sessions";
import { findSession, findSessionWithChecks } from "./find-session";
import { presentDecision, presentSession } from "./present";
import type { ListSessionsQuery } from "./schemas";
import { selectSessions } from "./select-sessions";

/** GET /api/v2/session: newest first, equality filters, `limit` (default 50, no maximum), no pagination. */
export async function listSessions(app: App, query: z.infer<typeof ListSessionsQuery>) {
  await expireDueSessions({ appId: app.id });
  const sessions = await selectSessions(app.id, { status: query.status, vendorData: query.vendor_data, order: "newest", limit: query.limit });
  return { sessions: sessions.map(presentSession) };
}

export async function getSessionSummary(app: App, id: string) {
  return presentSession(await findSession(app, id));
}

/** GET /api/v2/session/{id}/decision. */
export async function getDecision(app: App, id: string) {
  const { session, checks } = await findSessionWithChecks(app, id);
  return presentDecision(session, checks, await decisionIdentity(session));
}
