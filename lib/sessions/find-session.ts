import type { App, Session } from "@/generated/prisma/client";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import { expireSession } from "./expire-sessions";
import { UUID_PATTERN } from "./schemas";

/**
 * A session of this app, brought up to date (expired if due), or 404
 * `session_not_found`, also when it belongs to another app (spec 7 rule 2).
 */
export async function findSession(app: App, id: string): Promise<Session> {
  if (!UUID_PATTERN.test(id)) throw new ApiError("session_not_found", { message: "No such session" });
  const prisma = await db();
  const session = await prisma.session.findFirst({ where: { id, appId: app.id } });
  if (!session) throw new ApiError("session_not_found", { message: "No such session" });
  return expireSession(session);
}
