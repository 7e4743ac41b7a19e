import { apiRoute, operationRoute, servedRoute, type OperationAnswer } from "@/lib/http/api-route";
import type { Operation } from "@/lib/http/operation";
import type { RouteHandler } from "@/lib/http/adapters/next";
import { ApiError } from "@/lib/http/api-error";
import { assertStorableEntries } from "@/lib/http/core/clean-input";
import { envelopeReply } from "@/lib/http/core/pipeline";
import { Reply } from "@/lib/http/core/reply";
import type { RequestView } from "@/lib/http/core/request";
import { renderMessagePage } from "./message-page";
import { STRINGS } from "@/lib/accounts/sign-in-strings";

/**
 * The OIDC endpoints are routes of the one HTTP core like every other
 * (lib/http/core/pipeline.ts: request id, catalogue, logging, rate limit by
 * path), with what OAuth needs on top: they read their own parameters (form
 * bodies, which standard clients send, as well as JSON), answer top-level
 * JSON (token, userinfo), redirects and pages (authorize, logout), and a
 * browser route shows its errors on a page instead of the envelope.
 */
export type OidcRequest = RequestView;
type Ctx = { requestId: string; params: Record<string, string> };
export type OidcHandler<T = unknown> = (req: OidcRequest, ctx: Ctx) => Promise<Reply<T>>;
type ErrorRenderer = (err: ApiError, req: OidcRequest) => Reply;
/** What a documented operation's handler answers: a Reply carrying its success schema's type. */
type AnswerOf<O extends Operation> = Extract<OperationAnswer<O>, Reply<unknown>>;

/** Parameters of OAuth requests: small (RFC 6749 bodies are a few hundred bytes). */
const MAX_BODY_BYTES = 64 * 1024;

/**
 * A provider route. Documented endpoints (lib/openapi/operations/oidc.ts,
 * composed in lib/server/oidc-routes.ts) are the route of their operation,
 * whose schemas describe the parameters the handler reads itself and type
 * what it answers; the sign-in forms and account pages give none.
 */
function oidcRoute(handler: OidcHandler, renderError: ErrorRenderer | undefined, operation?: Operation): RouteHandler {
  const run = async ({ req, requestId, params }: { req: OidcRequest; requestId: string; params: Record<string, string> }) => handler(req, { requestId, params });
  if (!operation) return apiRoute({ auth: "none", rawBody: true, bodyLimit: MAX_BODY_BYTES, renderError }, run);
  return servedRoute(operation, operationRoute(operation, run as never, { readsOwnParameters: true, bodyLimit: MAX_BODY_BYTES, renderError }));
}

/** JSON endpoints (token, userinfo, account reads, JWKS, discovery): errors in the spec envelope. */
export function oidcJsonRoute(handler: OidcHandler): RouteHandler;
export function oidcJsonRoute<const O extends Operation>(handler: (req: OidcRequest, ctx: Ctx) => Promise<AnswerOf<O>>, operation: O): RouteHandler;
export function oidcJsonRoute(handler: OidcHandler, operation?: Operation): RouteHandler {
  return oidcRoute(handler, undefined, operation);
}

/**
 * The token endpoint: errors in the spec envelope for the spec's JSON
 * requests, and in RFC 6749's shape (5.2: top-level `error` and
 * `error_description`) for the form posts every OAuth client library sends
 * (oauthErrorReply): those libraries, and the OpenID Foundation's
 * conformance suite, read `error` as a string.
 */
export function oidcTokenRoute<const O extends Operation>(handler: (req: OidcRequest, ctx: Ctx) => Promise<AnswerOf<O>>, operation: O): RouteHandler {
  return oidcRoute(handler, (err, req) => (isFormPost(req) ? oauthErrorReply(err) : envelopeReply(err)), operation);
}

function isFormPost(req: Pick<OidcRequest, "headers">): boolean {
  return (req.headers.get("content-type") ?? "").toLowerCase().includes("application/x-www-form-urlencoded");
}

/**
 * RFC 6749 5.2's error body: `error` (the catalogue's code) and
 * `error_description`, kept to the characters 5.2 allows (printable ASCII
 * but `"` and `\`). Not cached (5.1); the error's own headers (a
 * `WWW-Authenticate: Basic` challenge) are kept.
 */
export function oauthErrorReply(err: ApiError): Reply {
  const description = err.message.normalize("NFKD").replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, "").trim();
  return Reply.json({ error: err.code, error_description: description || err.code }, err.status, {
    ...err.headers,
    "Cache-Control": "no-store",
    Pragma: "no-cache",
  });
}

/**
 * Browser endpoints (authorize, logout, the sign-in forms): an error that
 * cannot go back to a verified redirect URI is shown on a page (never
 * redirected), with the error code and the catalogued status.
 */
export function oidcPageRoute(handler: OidcHandler): RouteHandler;
export function oidcPageRoute<const O extends Operation>(handler: (req: OidcRequest, ctx: Ctx) => Promise<AnswerOf<O>>, operation: O): RouteHandler;
export function oidcPageRoute(handler: OidcHandler, operation?: Operation): RouteHandler {
  return oidcRoute(
    handler,
    (err) =>
      Reply.html(
        renderMessagePage({ title: STRINGS.errorPage.title, heading: STRINGS.errorPage.heading, message: err.message, code: err.code }),
        err.status,
      ),
    operation,
  );
}

export const json = Reply.json;

/** The spec envelope (`{ success, data }`) with OAuth's no-cache headers (the account reads, the predicate credential). */
export function enveloped<T>(data: T): Reply<T> {
  return Reply.data(data, 200, { Pragma: "no-cache" });
}
export const html = Reply.html;

/** A 303 See Other (the browser follows with a GET). */
export function redirect(location: string, setCookie: string[] = []): Reply<never> {
  return Reply.redirect(location, setCookie);
}

/**
 * Request parameters: the query string (GET) or the body (POST), as
 * `application/x-www-form-urlencoded` or `application/json`. A parameter
 * given twice, empty or not (`redirect_uri=&redirect_uri=X`), is a 400
 * `invalid_request` (RFC 6749 3.1, 3.2); an empty one alone counts as
 * absent. Text that cannot be stored (NUL, unpaired surrogates) is a 400 too.
 */
export async function readParams(req: OidcRequest, source: "query" | "body" | "both"): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const seen = new Set<string>();
  const add = (key: string, value: unknown) => {
    if (typeof value !== "string") {
      throw new ApiError("invalid_request", { message: `Parameter ${key} must be a string` });
    }
    assertNotRepeated(seen, key);
    assertStorableEntries([[key, value]], "parameters");
    if (value !== "") out.set(key, value);
  };
  if (source !== "body") {
    for (const [k, v] of new URL(req.url).searchParams) add(k, v);
  }
  if (source !== "query" && req.method === "POST") {
    const raw = await req.text();
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

/** RFC 6749 3.1: "Request and response parameters MUST NOT be included more than once", empty or not. */
export function assertNotRepeated(seen: Set<string>, key: string) {
  if (seen.has(key)) throw new ApiError("invalid_request", { message: `Parameter ${key} was given more than once` });
  seen.add(key);
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
