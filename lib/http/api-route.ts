import type { z } from "zod";
import type { App, Session } from "@/generated/prisma/client";
import { env } from "@/lib/config/env";
import { sessionFromToken } from "@/lib/flow/session-token";
import { describeError, logger } from "@/lib/log/logger";
import { ApiError } from "./api-error";
import { authenticateApiKey, authenticateClient } from "./auth";
import { clientIp } from "./client-ip";
import { errorBody, jsonResponse, successBody } from "./envelope";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  fingerprint,
  releaseIdempotencyKey,
  validateIdempotencyKey,
} from "./idempotency";
import { consumeRateLimit, type RateLimitBucket } from "./rate-limit";
import { newRequestId, REQUEST_ID_HEADER } from "./request-id";
import { readUpload, type Upload, type UploadLimits } from "./read-upload";
import { parseOrThrow } from "./validation";

/**
 * The one wrapper every API route goes through. In order: request id, rate
 * limit (by path: /api/v2 and /api/sdk), authentication, body and query
 * parsing and validation, the Idempotency-Key protocol on POST, the handler,
 * then the spec envelope. A thrown ApiError becomes its catalogued status;
 * anything else is logged with the request id and answered 500
 * `server_error` without internals.
 */
export type AuthKind = "apiKey" | "client" | "sessionToken" | "none";

type RouteOptions<A extends AuthKind, B extends z.ZodType | undefined, Q extends z.ZodType | undefined> = {
  auth: A;
  body?: B;
  query?: Q;
  /** A multipart image upload instead of a JSON body; with a session token it draws on the session's upload budget. */
  upload?: UploadLimits;
};

export type RouteContext<A extends AuthKind, B, Q> = {
  req: Request;
  requestId: string;
  params: Record<string, string>;
  app: A extends "apiKey" | "client" ? App : null;
  /** Who is calling, for audit logs: `api_key:<prefix>` or `client:<client_id>`. */
  actor: A extends "apiKey" | "client" ? string : null;
  /** The hosted flow's session (auth "sessionToken"; a GET may see a closed one, other methods may not). */
  session: A extends "sessionToken" ? Session : null;
  body: B extends z.ZodType ? z.infer<B> : undefined;
  /** The multipart upload (option `upload`). */
  upload: Upload | null;
  query: Q extends z.ZodType ? z.infer<Q> : Record<string, string>;
};

export class Reply<T = unknown> {
  constructor(
    readonly data: T,
    readonly status: number = 200,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** A success envelope with a status other than 200 (e.g. 201). */
export function reply<T>(data: T, status = 200, headers: Record<string, string> = {}) {
  return new Reply(data, status, headers);
}

type NextRouteContext = { params?: Promise<Record<string, string | string[] | undefined>> };
export type RouteHandler = (req: Request, ctx: NextRouteContext) => Promise<Response>;

const MAX_JSON_BYTES = 1024 * 1024;
const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function bucketFor(pathname: string): RateLimitBucket | null {
  if (pathname === "/api/v2" || pathname.startsWith("/api/v2/")) return "v2";
  if (pathname === "/api/sdk" || pathname.startsWith("/api/sdk/")) return "sdk";
  return null;
}

async function readJsonBody(req: Request): Promise<{ raw: string; value: unknown }> {
  if (!BODY_METHODS.has(req.method)) return { raw: "", value: undefined };
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > MAX_JSON_BYTES) throw new ApiError("request_too_large");
  const raw = await req.text();
  if (Buffer.byteLength(raw) > MAX_JSON_BYTES) throw new ApiError("request_too_large");
  if (raw.trim() === "") return { raw, value: undefined };
  try {
    // Parsed as JSON whatever the Content-Type says (curl -d sends a form type).
    return { raw, value: JSON.parse(raw) };
  } catch {
    const type = req.headers.get("content-type") ?? "";
    const hint = /json/i.test(type) || !type ? "" : " (send Content-Type: application/json)";
    throw new ApiError("invalid_request", { message: `Malformed JSON body${hint}` });
  }
}

async function resolveParams(ctx: NextRouteContext | undefined): Promise<Record<string, string>> {
  const raw = (await ctx?.params) ?? {};
  const params: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (typeof v === "string") params[k] = v;
    else if (Array.isArray(v)) params[k] = v.join("/");
  }
  return params;
}

function finish(response: Response, requestId: string, headers: Record<string, string>): Response {
  response.headers.set(REQUEST_ID_HEADER, requestId);
  for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  return response;
}

function renderError(err: unknown, req: Request, requestId: string): Response {
  const error =
    err instanceof ApiError
      ? err
      : (logger.error("unhandled error", { requestId, method: req.method, path: new URL(req.url).pathname, ...describeError(err) }),
        new ApiError("server_error", { message: `Unexpected server error (request ${requestId})` }));
  return finish(jsonResponse(errorBody(error), error.status), requestId, error.headers);
}

export function apiRoute<
  A extends AuthKind,
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
>(
  options: RouteOptions<A, B, Q>,
  handler: (ctx: RouteContext<A, B, Q>) => Promise<unknown>,
): RouteHandler {
  return async (req, nextCtx) => {
    const requestId = newRequestId();
    let rateHeaders: Record<string, string> = {};
    let claimId: string | undefined;
    let handlerStarted = false;
    try {
      const url = new URL(req.url);
      const bucket = bucketFor(url.pathname);
      if (bucket) rateHeaders = await consumeRateLimit(bucket, clientIp(req));

      const caller =
        options.auth === "apiKey"
          ? await authenticateApiKey(req)
          : options.auth === "client"
            ? await authenticateClient(req)
            : null;
      const app = caller?.app ?? null;
      const session =
        options.auth === "sessionToken" ? await sessionFromToken(req, { forUpdate: req.method !== "GET" }) : null;

      let upload: Upload | null = null;
      if (options.upload && session) {
        const { SESSION_UPLOADS_PER_10_MINUTES } = env();
        await consumeRateLimit("session-uploads", session.id, SESSION_UPLOADS_PER_10_MINUTES, 600);
      }
      if (options.upload) upload = await readUpload(req, options.upload);
      const { raw, value } = options.upload ? { raw: "", value: undefined } : await readJsonBody(req);
      const body = options.body ? parseOrThrow(options.body, value ?? {}, "body") : undefined;
      const queryInput = Object.fromEntries(url.searchParams);
      const query = options.query ? parseOrThrow(options.query, queryInput, "query") : queryInput;
      const params = await resolveParams(nextCtx);

      const idempotencyKey = req.headers.get("idempotency-key");
      if (req.method === "POST" && idempotencyKey !== null && app) {
        const claim = await claimIdempotencyKey({
          scope: options.auth === "client" ? `org-client:${app.id}` : `app:${app.id}`,
          key: validateIdempotencyKey(idempotencyKey),
          method: req.method,
          path: url.pathname,
          requestHash: fingerprint(req.method, url.pathname, raw),
        });
        if (claim.kind === "replay") {
          const replayed = new Response(claim.body, {
            status: claim.status,
            headers: { "Content-Type": "application/json; charset=utf-8", "Idempotent-Replayed": "true" },
          });
          return finish(replayed, requestId, rateHeaders);
        }
        claimId = claim.recordId;
      }

      handlerStarted = true;
      const result = await handler({ req, requestId, params, app, actor: caller?.actor ?? null, session, body, upload, query } as RouteContext<A, B, Q>);
      const out = result instanceof Reply ? result : new Reply(result);
      const text = JSON.stringify(successBody(out.data));
      if (claimId) await completeIdempotencyKey(claimId, out.status, text);
      const response = new Response(text, {
        status: out.status,
        headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
      });
      return finish(response, requestId, { ...rateHeaders, ...out.headers });
    } catch (err) {
      const response = renderError(err, req, requestId);
      if (claimId) {
        // A handler's own 4xx is the request's answer and is replayed; a 5xx
        // is not stored, so a retry with the same key runs again.
        const store = handlerStarted && err instanceof ApiError && err.status < 500;
        await (store
          ? completeIdempotencyKey(claimId, response.status, await response.clone().text())
          : releaseIdempotencyKey(claimId)
        ).catch((e) => logger.error("idempotency bookkeeping failed", { requestId, ...describeError(e) }));
      }
      return err instanceof ApiError && err.code === "rate_limited"
        ? response
        : finish(response, requestId, rateHeaders);
    }
  };
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

/**
 * Fills in every method a route file does not define with a 405 in the
 * envelope (and an `Allow` header), so Next never answers outside it:
 * `export const { GET, POST, PUT, PATCH, DELETE } = routeMethods({ GET: ..., POST: ... })`.
 */
export function routeMethods(defined: Partial<Record<Method, RouteHandler>>): Record<Method, RouteHandler> {
  const allow = Object.keys(defined).join(", ");
  const notAllowed = apiRoute({ auth: "none" }, async ({ req }) => {
    throw new ApiError("method_not_allowed", {
      message: `${req.method} is not allowed here; allowed: ${allow}`,
      headers: { Allow: allow },
    });
  });
  return Object.fromEntries(METHODS.map((m) => [m, defined[m] ?? notAllowed])) as Record<Method, RouteHandler>;
}
