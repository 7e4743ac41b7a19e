import NextAuth from "next-auth";
import { ApiError } from "@/lib/http/api-error";
import { clientIp } from "@/lib/http/client-ip";
import { Reply, type HeaderValues } from "@/lib/http/core/reply";
import type { RequestView } from "@/lib/http/core/request";
import { findDeveloperOrganization } from "./access";
import { portalAuthOptions } from "./auth-options";
import { endDeveloperSession } from "./developer-sessions";
import { parseCookieHeader } from "@/lib/http/cookies";
import { portalSessionFromCookies } from "./session-cookie";

/**
 * next-auth 4's endpoints (/api/portal/auth/csrf, /session, /providers,
 * /callback/credentials, /signout...) served as a route of the one HTTP
 * core: next-auth's framework-neutral API handler is given a plain request
 * (method, headers, cookies, query, parsed form or JSON body) and a response
 * recorder, and its answer becomes a core Reply. So these routes get the
 * core's request id, rate limit and error envelope like every other, and no
 * `next/headers` is needed (next-auth's App Router handler reads them).
 */
type Recorded = { status: number; headers: Record<string, string | string[]>; body: unknown; kind: "json" | "redirect" | "text" | null };

function recorder() {
  const recorded: Recorded = { status: 200, headers: {}, body: null, kind: null };
  const res = {
    status(code: number) {
      recorded.status = code;
      return res;
    },
    setHeader(name: string, value: string | string[]) {
      recorded.headers[name] = value;
      return res;
    },
    getHeader(name: string) {
      return recorded.headers[name];
    },
    end() {
      recorded.kind ??= "redirect";
      return res;
    },
    json(body: unknown) {
      recorded.kind = "json";
      recorded.body = body;
      return res;
    },
    send(body: unknown) {
      recorded.kind = typeof body === "string" ? "text" : "json";
      recorded.body = body;
      return res;
    },
  };
  return { res, recorded };
}

async function parseBody(req: RequestView): Promise<Record<string, string> | undefined> {
  if (req.method !== "POST") return undefined;
  const text = await req.text();
  const type = req.headers.get("content-type") ?? "";
  if (/application\/json/i.test(type)) {
    try {
      const value = JSON.parse(text) as unknown;
      return value && typeof value === "object" ? (value as Record<string, string>) : undefined;
    } catch {
      return undefined;
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
}

/** next-auth's endpoints under /api/portal/auth; anything else is 404 `endpoint_not_found` in the envelope, like any unknown path. */
const NEXT_AUTH_ACTIONS = new Set(["csrf", "session", "providers", "signin", "signout", "callback", "error", "_log"]);

export async function serveNextAuth(req: RequestView, path: string): Promise<Reply> {
  const url = new URL(req.url);
  const nextauth = path.split("/").filter(Boolean);
  if (!NEXT_AUTH_ACTIONS.has(nextauth[0] ?? "")) {
    throw new ApiError("endpoint_not_found", { message: `No endpoint ${req.method} ${url.pathname}` });
  }
  const cookies = parseCookieHeader(req.headers.get("cookie"));
  const signingOut = nextauth[0] === "signout" && req.method === "POST";
  const session = signingOut || nextauth[0] === "session" ? await portalSessionFromCookies(cookies) : null;
  // Sign-out ends the server-side session before next-auth clears the cookie, so a failure
  // (the database down) is an error the browser sees, never a sign-out that did not happen.
  if (signingOut && session) await endDeveloperSession(session.sessionId);
  // next-auth's session read trusts the cookie alone: an ended session reads as none, as without a cookie.
  if (nextauth[0] === "session" && session && !(await findDeveloperOrganization(session))) return Reply.json({}, 200);
  const headers: Record<string, string> = {};
  for (const name of ["host", "cookie", "content-type", "origin", "referer", "user-agent"]) {
    const value = req.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const { res, recorded } = recorder();
  const nextReq = {
    method: req.method,
    headers,
    cookies,
    body: await parseBody(req),
    query: { ...Object.fromEntries(url.searchParams), nextauth },
  };
  await NextAuth(nextReq as never, res as never, portalAuthOptions({ clientIp: clientIp(req) }));

  const out: HeaderValues = {};
  for (const [name, value] of Object.entries(recorded.headers)) {
    if (name.toLowerCase() !== "location") out[name] = value;
  }
  const location = recorded.headers.Location ?? recorded.headers.location;
  if (recorded.kind === "redirect" && typeof location === "string") {
    const cookies = [out["Set-Cookie"] ?? []].flat();
    return Reply.redirect(location, cookies);
  }
  if (recorded.kind === "text") return Reply.html(String(recorded.body), recorded.status, out);
  return Reply.json(recorded.body ?? {}, recorded.status, out);
}
