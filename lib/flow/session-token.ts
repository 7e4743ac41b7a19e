import type { Session } from "@/generated/prisma/client";
import { hashSecret } from "@/lib/crypto/secrets";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import type { HeaderReader } from "@/lib/http/core/request";
import { expireSession } from "@/lib/sessions/expire-sessions";
import { assertSessionOpen } from "@/lib/sessions/open-session";

/** The hosted page sends the session token as `Authorization: Bearer <token>` or `X-Session-Token`. */
export function readSessionToken(req: { headers: HeaderReader }): string | undefined {
  const header = req.headers.get("x-session-token")?.trim();
  if (header) return header;
  return req.headers.get("authorization")?.trim().match(/^Bearer\s+(st_\S+)$/i)?.[1];
}

/**
 * The session of a session token, brought up to date (expired if due), open
 * or not: 404 `session_not_found` for a token of no session.
 */
export async function findSessionByToken(token: string): Promise<Session> {
  const prisma = await db();
  const found = await prisma.session.findUnique({ where: { sessionTokenHash: hashSecret(token) } });
  if (!found) throw new ApiError("session_not_found", { message: "No session for this token" });
  return expireSession(found);
}

/**
 * The session a hosted-flow request acts on. 401 `token_missing` without a
 * token; 404 `session_not_found` for a token of no session; with
 * `forUpdate`, the session must be open (assertSessionOpen: 410
 * `session_expired`, 409 `session_closed`).
 */
export async function sessionFromToken(req: { headers: HeaderReader }, options: { forUpdate: boolean }): Promise<Session> {
  const token = readSessionToken(req);
  if (!token) throw new ApiError("token_missing", { message: "Send the session token: Authorization: Bearer st_..." });
  const session = await findSessionByToken(token);
  if (options.forUpdate) assertSessionOpen(session);
  return session;
}
