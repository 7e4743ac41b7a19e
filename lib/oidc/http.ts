import { ApiError } from "@/lib/http/api-error";
import { errorBody } from "@/lib/http/envelope";
import type { RouteHandler } from "@/lib/http/api-route";
import { newRequestId, REQUEST_ID_HEADER } from "@/lib/http/request-id";
import { describeError, logger } from "@/lib/log/logger";
import { startOidcMaintenance } from "./maintenance";
import { renderMessagePage } from "./message-page";
import { STRINGS } from "./strings";

/**
 * The OIDC endpoints' own wrapper. They cannot use apiRoute(): the token
 * endpoint takes form bodies (what standard clients send) as well as JSON and
 * answers top-level token JSON, userinfo answers top-level claims, and
 * authorize and logout answer browsers with redirects and pages. What they
 * share with the rest of the API: X-Request-Id on every response, the one
 * error catalogue and its envelope, and no internals on a 500.
 *
 * Handlers are framework-neutral: they read an `OidcRequest` (what a Web
 * `Request` offers and they use: method, url, headers.get, text) and return
 * a plain `Reply`. The route wrapper adapts that to Next's Request ->
 * Response; lib/oidc/lean-routes.ts serves the hot endpoints from node:http
 * with the very same `serve`.
 */
export type OidcRequest = {
  method: string;
  url: string;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
};

export type Reply = { status: number; headers: Record<string, string | string[]>; body: string | null };

type Ctx = { requestId: string; params: Record<string, string> };
type Handler = (req: OidcRequest, ctx: Ctx) => Promise<Reply>;

/** A Next route handler that also exposes its framework-neutral `serve`. */
export type OidcRoute = RouteHandler & { serve(req: OidcRequest, params: Record<string, string>): Promise<Reply> };

const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Reply {
  return {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", ...NO_STORE, ...headers },
    body: JSON.stringify(body),
  };
}

/** A 303 See Other (the browser follows with a GET). */
export function redirect(location: string, setCookie?: string): Reply {
  return {
    status: 303,
    headers: { Location: location, "Cache-Control": "no-store", ...(setCookie ? { "Set-Cookie": [setCookie] } : {}) },
    body: null,
  };
}

function envelope(error: ApiError): Reply {
  return json(errorBody(error), error.status, error.headers);
}

async function resolveParams(ctx: { params?: Promise<Record<string, string | string[] | undefined>> } | undefined) {
  const raw = (await ctx?.params) ?? {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (typeof v === "string") out[k] = v;
  return out;
}

export function toWebResponse(reply: Reply): Response {
  const headers = new Headers();
  for (const [k, v] of Object.entries(reply.headers)) {
    if (Array.isArray(v)) for (const one of v) headers.append(k, one);
    else headers.set(k, v);
  }
  return new Response(reply.body, { status: reply.status, headers });
}

function wrap(handler: Handler, onError: (err: ApiError) => Reply): OidcRoute {
  const serve = async (req: OidcRequest, params: Record<string, string>): Promise<Reply> => {
    const requestId = newRequestId();
    startOidcMaintenance();
    let reply: Reply;
    try {
      reply = await handler(req, { requestId, params });
    } catch (err) {
      if (err instanceof ApiError) {
        reply = onError(err);
      } else {
        logger.error("unhandled error", { requestId, method: req.method, path: new URL(req.url).pathname, ...describeError(err) });
        reply = onError(new ApiError("server_error", { message: `Unexpected server error (request ${requestId})` }));
      }
    }
    reply.headers[REQUEST_ID_HEADER] = requestId;
    return reply;
  };
  const route = (async (req: Request, nextCtx: Parameters<RouteHandler>[1]) =>
    toWebResponse(await serve(req, await resolveParams(nextCtx)))) as OidcRoute;
  route.serve = serve;
  return route;
}

/** JSON endpoints (token, userinfo, account reads, JWKS, discovery): errors in the spec envelope. */
export function oidcJsonRoute(handler: Handler): OidcRoute {
  return wrap(handler, envelope);
}

/**
 * Browser endpoints (authorize, logout): an error that cannot go back to a
 * verified redirect URI is shown on a page (never redirected), with the
 * error code and the catalogued status.
 */
export function oidcPageRoute(handler: Handler): OidcRoute {
  return wrap(handler, (err) =>
    html(
      renderMessagePage({
        title: STRINGS.errorPage.title,
        heading: STRINGS.errorPage.heading,
        message: err.message,
        code: err.code,
      }),
      err.status,
    ),
  );
}

export function html(body: string, status = 200): Reply {
  return {
    status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      ...NO_STORE,
      // Never framed (clickjacking), nothing loaded from elsewhere.
      "X-Frame-Options": "DENY",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
      "Referrer-Policy": "no-referrer",
    },
    body,
  };
}

const MAX_BODY_BYTES = 64 * 1024;

/**
 * Request parameters: the query string (GET) or the body (POST), as
 * `application/x-www-form-urlencoded` or `application/json`. A parameter
 * given twice is a 400 `invalid_request` (RFC 6749 3.1, 3.2).
 */
export async function readParams(req: OidcRequest, source: "query" | "body" | "both"): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const add = (key: string, value: unknown) => {
    if (typeof value !== "string") {
      throw new ApiError("invalid_request", { message: `Parameter ${key} must be a string` });
    }
    if (out.has(key)) throw new ApiError("invalid_request", { message: `Parameter ${key} was given more than once` });
    if (value !== "") out.set(key, value);
  };
  if (source !== "body") {
    for (const [k, v] of new URL(req.url).searchParams) add(k, v);
  }
  if (source !== "query" && req.method === "POST") {
    const declared = Number(req.headers.get("content-length") ?? "0");
    if (declared > MAX_BODY_BYTES) throw new ApiError("request_too_large");
    const raw = await req.text();
    if (Buffer.byteLength(raw) > MAX_BODY_BYTES) throw new ApiError("request_too_large");
    const type = (req.headers.get("content-type") ?? "").toLowerCase();
    if (raw.trim() === "") return out;
    if (type.includes("application/json") || (!type.includes("urlencoded") && raw.trimStart().startsWith("{"))) {
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        throw new ApiError("invalid_request", { message: "Malformed JSON body" });
      }
      if (!value || typeof value !== "object" || Array.isArray(value)) {
        throw new ApiError("invalid_request", { message: "The JSON body must be an object" });
      }
      for (const [k, v] of Object.entries(value)) {
        if (v !== null && v !== undefined) add(k, v);
      }
    } else if (type.includes("application/x-www-form-urlencoded") || type === "") {
      for (const [k, v] of new URLSearchParams(raw)) add(k, v);
    } else {
      throw new ApiError("invalid_request", {
        message: "Send the parameters as application/json or application/x-www-form-urlencoded",
      });
    }
  }
  return out;
}

/** `Authorization: Bearer <token>` (RFC 6750 2.1), or undefined. */
export function bearerToken(req: Pick<OidcRequest, "headers">): string | undefined {
  const match = req.headers.get("authorization")?.trim().match(/^Bearer +([\x21-\x7e]+)$/i);
  return match?.[1];
}

/** Adds `iss` (RFC 9207) and the given parameters to a redirect URI, keeping its own query. */
export function withQuery(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}
