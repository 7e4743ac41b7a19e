import { NextResponse, type NextRequest } from "next/server";
import { frameAncestorsHeaders } from "@/lib/http/frame-ancestors";
import { describeError, logger } from "@/lib/log/logger";
import { frameOriginsOfSession } from "@/lib/sessions/frame-ancestors";

/**
 * Next's proxy (Node.js runtime, same process as the app), for the one page
 * that may be framed: the hosted verification page `/verify/<session_id>`
 * gets `frame-ancestors` with the origins its session's app registered,
 * `'none'` (and X-Frame-Options: DENY) for an empty list or an unknown or
 * expired session, or when the database cannot say. Every other path is
 * never framed by next.config.mjs's headers and never reaches this proxy.
 */
export async function proxy(request: NextRequest) {
  const sessionId = request.nextUrl.pathname.slice("/verify/".length);
  let origins: string[] = [];
  try {
    origins = await frameOriginsOfSession(sessionId);
  } catch (err) {
    logger.error("frame origins of a hosted page could not be read; it is sent as never framed", describeError(err));
  }
  const response = NextResponse.next();
  for (const [name, value] of Object.entries(frameAncestorsHeaders(origins))) response.headers.set(name, value);
  return response;
}

export const config = { matcher: "/verify/:id" };
