import { NextResponse, type NextRequest } from "next/server";
import { frameAncestorsHeaders } from "@/lib/http/frame-ancestors";
import { choosePersonLocale } from "@/lib/i18n/choose-person-locale";
import { PERSON_LOCALE_HEADER } from "@/lib/i18n/locales";
import { describeError, logger } from "@/lib/log/logger";
import { hostedPageOfSession, type HostedPageOfSession } from "@/lib/sessions/hosted-page";

/**
 * Next's proxy (Node.js runtime, same process as the app), for the hosted
 * verification page `/verify/<session_id>`, the one page that may be framed:
 * - `frame-ancestors` with the origins its session's app registered,
 *   `'none'` (and X-Frame-Options: DENY) for an empty list or an unknown or
 *   expired session, or when the database cannot say. Every other path is
 *   never framed by next.config.mjs's headers and never reaches this proxy.
 * - the page's language (lib/i18n/locales.ts `choosePersonLocale`): the
 *   person's choice on the page (`?lang=`), the session's `language`, the
 *   browser's `Accept-Language`, English; passed to the layouts in a
 *   request header (`<html lang dir>`, the messages the page gets).
 */
export async function proxy(request: NextRequest) {
  const sessionId = request.nextUrl.pathname.slice("/verify/".length);
  let page: HostedPageOfSession = { frameOrigins: [], language: null };
  try {
    page = await hostedPageOfSession(sessionId);
  } catch (err) {
    logger.error("the settings of a hosted page could not be read; it is sent as never framed, in the browser's language", describeError(err));
  }
  const locale = choosePersonLocale({
    chosen: request.nextUrl.searchParams.get("lang"),
    requested: page.language,
    acceptLanguage: request.headers.get("accept-language"),
  });
  const forwarded = new Headers(request.headers);
  forwarded.set(PERSON_LOCALE_HEADER, locale);
  const response = NextResponse.next({ request: { headers: forwarded } });
  for (const [name, value] of Object.entries(frameAncestorsHeaders(page.frameOrigins))) response.headers.set(name, value);
  return response;
}

export const config = { matcher: "/verify/:id" };
