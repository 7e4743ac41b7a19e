import type { z } from "zod";
import type { App } from "@/generated/prisma/client";
import { db } from "@/lib/db/client";
import { expireDueSessions } from "./expire-sessions";
import { findSession, findSessionWithChecks } from "./find-session";
import { presentDecision, presentSession } from "./present";
import type { ListSessionsQuery } from "./schemas";

/** GET /api/v2/session: newest first, equality filters, `limit` (default 50, no maximum), no pagination. */
export async function listSessions(app: App, query: z.infer<typeof ListSessionsQuery>) {
  await expireDueSessions({ appId: app.id });
  const prisma = await db();
  const sessions = await prisma.session.findMany({
    where: {
      appId: app.id,
      ...(query.status ? { status: query.status } : {}),
      ...(query.vendor_data !== undefined ? { vendorData: query.vendor_data } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: query.limit,
  });
  return { sessions: sessions.map(presentSession) };
}

export async function getSessionSummary(app: App, id: string) {
  return presentSession(await findSession(app, id));
}

/** GET /api/v2/session/{id}/decision. */
export async function getDecision(app: App, id: string) {
  const { session, checks } = await findSessionWithChecks(app, id);
  return presentDecision(session, checks);
}
