import type { App, Session } from "@/generated/prisma/client";
import { ApiError } from "@/lib/http/api-error";
import { expireSession } from "./expire-sessions";
import { loadSessionWithChecks, type CheckView } from "./load-session";
import { UUID_PATTERN } from "@/lib/http/validation";

/**
 * A session of this app, brought up to date (expired if due), or 404
 * `session_not_found`, also when it belongs to another app (spec 7 rule 2).
 */
export async function findSessionWithChecks(app: App, id: string): Promise<{ session: Session; checks: CheckView[] }> {
  if (!UUID_PATTERN.test(id)) throw new ApiError("session_not_found", { message: "No such session" });
  const found = await loadSessionWithChecks(app.id, id);
  if (!found) throw new ApiError("session_not_found", { message: "No such session" });
  const session = await expireSession(found.session);
  return { session, checks: found.checks };
}

export async function findSession(app: App, id: string): Promise<Session> {
  return (await findSessionWithChecks(app, id)).session;
}
