import type { Session } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { hashSecret } from "@/lib/crypto/secrets";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import type { HeaderReader } from "@/lib/http/core/request";
import { expireSession } from "@/lib/sessions/expire-sessions";
import { isTerminal } from "@/lib/sessions/statuses";

/** The hosted page sends the session token as `Authorization: Bearer <token>` or `X-Session-Token`. */
export function readSessionToken(req: { headers: HeaderReader }): string | undefined {
  const header = req.headers.get("x-session-token")?.trim();
  if (header) return header;
  return req.headers.get("authorization")?.trim().match(/^Bearer\s+(st_\S+)$/i)?.[1];
}

/**
 * The session a hosted-flow request acts on. 401 `token_missing` without a
 * token; 404 `session_not_found` for a token of no session; with
 * `forUpdate`, 410 `session_expired` once it expired (or was abandoned) and
 * 409 `session_closed` once it is decided or in review.
 */
export async function sessionFromToken(req: { headers: HeaderReader }, options: { forUpdate: boolean }): Promise<Session> {
  const token = readSessionToken(req);
  if (!token) throw new ApiError("token_missing", { message: "Send the session token: Authorization: Bearer st_..." });
  const prisma = await db();
  const found = await prisma.session.findUnique({ where: { sessionTokenHash: hashSecret(token) } });
  if (!found) throw new ApiError("session_not_found", { message: "No session for this token" });
  const session = await expireSession(found);
  if (options.forUpdate) {
    if (session.status === "EXPIRED" || session.status === "ABANDONED" || session.expiresAt <= now()) {
      throw new ApiError("session_expired", { message: "This verification session has expired" });
    }
    if (isTerminal(session.status) || session.status === "IN_REVIEW") {
      throw new ApiError("session_closed", { message: `This verification session is already ${session.status}` });
    }
  }
  return session;
}
