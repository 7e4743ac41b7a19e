import type { z } from "zod";
import type { App, Session } from "@/generated/prisma/client";
import type { Tx } from "@/lib/db/client";
import { env } from "@/lib/config/env";
import { describeError, logger } from "@/lib/log/logger";
import { changesSession, takesIdempotencyKey } from "./request-rules";
import { routeCallers, type RouteDeveloper } from "./callers";
import { ApiError } from "../api-error";
import { isDatabaseUnavailable } from "@/lib/db/outage";
import { authenticateApiKey, authenticateClient } from "../auth";
import { clientIp } from "../client-ip";
import { errorBody } from "../envelope";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  fingerprint,
  completeIdempotencyKeyIn,
  releaseIdempotencyKey,
  renewIdempotencyClaim,
  validateIdempotencyKey,
} from "../idempotency";
import { consumeRateLimit, rateLimitBucketFor } from "../rate-limit";
import { readUpload, uploadFingerprint, type Upload, type UploadLimits } from "../read-upload";
import { parseOrThrow } from "../validation";
import { assertStorableEntries, assertStorableJson } from "./clean-input";
import { Reply, renderReply, type HeaderValues, type Rendered } from "./reply";
import { ClientClosedRequest, REQUEST_ID_HEADER, requestIdOf, type CoreRequest, type RequestView } from "./request";

/**
 * The one HTTP core. Every surface (the verification API, the organization
 * API, the hosted flow's calls, the OpenID Connect endpoints, health) is a
 * route defined here and served by a thin adapter (lib/http/adapters/: Next
 * route handlers, or node:http for the hottest OIDC endpoints). In order:
 * request id, rate limit (by path), path and query text checks,
 * authentication, body parsing and validation, the Idempotency-Key protocol
 * on POST, the handler, then rendering (the spec envelope, top-level JSON,
 * a redirect, a page). A thrown ApiError becomes its catalogued status,
 * rendered by the route's error renderer (the envelope unless a browser
 * route shows a page); anything else is logged with the request id and
 * answered 500 `server_error` without internals.
 */
/**
 * Authentication kinds: a verification API key, client credentials (the
 * organization API), a hosted session's token, the developer portal's
 * next-auth session cookie (`developer`: lib/portal/authenticate.ts, with its
 * cross-site check on state-changing methods), or none. The session token and
 * the portal cookie are read by the domains that own them (./callers.ts).
 */
export type AuthKind = "apiKey" | "client" | "sessionToken" | "developer" | "none";

export type RouteOptions<A extends AuthKind, B extends z.ZodType | undefined, Q extends z.ZodType | undefined> = {
  auth: A;
  /** JSON body schema (validated; 400 with a per-field map). */
  body?: B;
  query?: Q;
  /** A multipart image upload instead of a JSON body; with a session token it draws on the session's upload budget. */
  upload?: UploadLimits;
  /**
   * Runs after authentication and before the body is read: a route whose
   * caller is known only from its own headers (a cookie and a CSRF header)
   * refuses a stranger here, before buffering an upload of up to 160 MB.
   */
  beforeBody?: (req: RequestView, params: Record<string, string>) => Promise<void>;
  /** The handler reads the body itself (`req.text()`, e.g. OAuth form posts); the core does not parse it. */
  rawBody?: boolean;
  /** Largest body `req.text()` and JSON parsing accept (413 beyond it). Default 1 MB. */
  bodyLimit?: number;
  /**
   * How errors are shown: the spec envelope (default), or e.g. a page for
   * browser routes, or RFC 6749's body for an OAuth client's form post.
   */
  renderError?: (error: ApiError, req: RequestView) => Reply;
  /**
   * A hosted-flow step that a decided session answers with its outcome
   * instead of 409 `session_closed` (finish: a reload, or a retry whose first
   * answer was lost, gets the decision). Expired sessions still get 410.
   */
  answersDecidedSession?: boolean;
};

export type RouteContext<A extends AuthKind, B, Q> = {
  req: RequestView;
  requestId: string;
  params: Record<string, string>;
  app: A extends "apiKey" | "client" ? App : null;
  /** Who is calling, for audit logs: `api_key:<prefix>` or `client:<client_id>`. */
  actor: A extends "apiKey" | "client" ? string : null;
  /** The hosted flow's session (auth "sessionToken"; a GET may see a closed one, other methods may not). */
  session: A extends "sessionToken" ? Session : null;
  /** The signed-in portal developer and their organization (auth "developer"). */
  developer: A extends "developer" ? RouteDeveloper : null;
  body: B extends z.ZodType ? z.infer<B> : undefined;
  /** The multipart upload (option `upload`). */
  upload: Upload | null;
  query: Q extends z.ZodType ? z.infer<Q> : Record<string, string>;
  /**
   * With an Idempotency-Key: given how the route turns its result into its
   * answer, a function that stores that answer as the request's replayed one
   * inside the handler's own transaction `tx`, so the effect and the answer
   * commit together (session, workflow and member creation, an invite
   * re-send, a recovery session, a webhook test event, a delivery resend).
   * Null without a key.
   */
  commitAnswer: (<T>(answer: (value: T) => Reply) => (tx: Tx, value: T) => Promise<void>) | null;
};

/** A route served by any adapter: `serve` never throws. */
export type CoreRoute = { serve(req: CoreRequest, params: Record<string, string>): Promise<Rendered> };

export const MAX_JSON_BYTES = 1024 * 1024;
const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The spec envelope for an error (spec 2.1, 7). */
export function envelopeReply(error: ApiError): Reply {
  return Reply.json(errorBody(error), error.status, error.headers);
}

function viewOf(req: CoreRequest, limit: number): RequestView {
  let text: Promise<string> | undefined;
  return {
    method: req.method,
    url: req.url,
    headers: req.headers,
    text: () =>
      (text ??= req.readBody(limit).then((bytes) => {
        if (bytes === null) throw new ApiError("request_too_large", { message: `Request body over ${limit} bytes` });
        return new TextDecoder().decode(bytes);
      })),
  };
}

async function readJsonBody(req: RequestView): Promise<{ raw: string; value: unknown }> {
  if (!BODY_METHODS.has(req.method)) return { raw: "", value: undefined };
  const raw = await req.text();
  if (raw.trim() === "") return { raw, value: undefined };
  let value: unknown;
  try {
    // Parsed as JSON whatever the Content-Type says (curl -d sends a form type).
    value = JSON.parse(raw);
  } catch {
    const type = req.headers.get("content-type") ?? "";
    const hint = /json/i.test(type) || !type ? "" : " (send Content-Type: application/json)";
    throw new ApiError("invalid_request", { message: `Malformed JSON body${hint}` });
  }
  assertStorableJson(value, "");
  return { raw, value };
}

/** Idempotency keys are scoped per tenant: the app (API key, client credentials) or the hosted session. */
function idempotencyScope(auth: AuthKind, app: App | null, session: Session | null): string | null {
  if (auth === "apiKey" && app) return `app:${app.id}`;
  if (auth === "client" && app) return `org-client:${app.id}`;
  if (auth === "sessionToken" && session) return `session:${session.id}`;
  return null;
}

/** What an Idempotency-Key replays: the JSON text (the replay answers JSON; byte replies are GETs, never claimed). */
function storedBody(rendered: Rendered): string {
  return typeof rendered.body === "string" ? rendered.body : "";
}

/** A rendered reply with the request's id (and any extra headers). */
/** `extra` (the surface's rate-limit headers) under the reply's own: a route with a stricter limit of its own reports that one. */
export function withHeaders(rendered: Rendered, requestId: string, extra: HeaderValues = {}): Rendered {
  return { ...rendered, headers: { ...extra, ...rendered.headers, [REQUEST_ID_HEADER]: requestId } };
}

/** An error in the spec envelope, carrying the request's id: what the adapters and the edge answer outside a route. */
export function renderedError(error: ApiError, requestId: string): Rendered {
  return withHeaders(renderReply(envelopeReply(error)), requestId);
}

function unexpected(err: unknown, req: CoreRequest, requestId: string): ApiError {
  const where = { requestId, method: req.method, path: new URL(req.url).pathname };
  if (err instanceof ClientClosedRequest) {
    // Nobody reads this answer: the connection is gone.
    logger.info("client closed the request", where);
    return new ApiError("invalid_request", { message: "The request body did not arrive: the connection was closed" });
  }
  if (isDatabaseUnavailable(err)) {
    logger.warn("database unavailable", { ...where, error: err instanceof Error ? err.message : String(err) });
    return new ApiError("service_unavailable", { message: `The database is unavailable; retry shortly (request ${requestId})`, headers: { "Retry-After": "2" } });
  }
  logger.error("unhandled error", { ...where, ...describeError(err) });
  return new ApiError("server_error", { message: `Unexpected server error (request ${requestId})` });
}

export function defineRoute<
  A extends AuthKind,
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
>(options: RouteOptions<A, B, Q>, handler: (ctx: RouteContext<A, B, Q>) => Promise<unknown>): CoreRoute {
  const renderError = options.renderError ?? envelopeReply;
  const serve = async (raw: CoreRequest, params: Record<string, string>): Promise<Rendered> => {
    const requestId = requestIdOf(raw.headers);
    const req = viewOf(raw, options.bodyLimit ?? MAX_JSON_BYTES);
    let rateHeaders: HeaderValues = {};
    let claimId: string | undefined;
    let stopRenewing: (() => void) | undefined;
    let handlerStarted = false;
    try {
      const url = new URL(raw.url);
      const bucket = rateLimitBucketFor(url.pathname);
      if (bucket) rateHeaders = await consumeRateLimit(bucket, { ip: clientIp(raw) });
      assertStorableEntries(Object.entries(params), "path");
      assertStorableEntries(url.searchParams, "query");

      const caller =
        options.auth === "apiKey" ? await authenticateApiKey(raw) : options.auth === "client" ? await authenticateClient(raw) : null;
      const app = caller?.app ?? null;
      const callers = options.auth === "sessionToken" || options.auth === "developer" ? routeCallers() : null;
      const session = options.auth === "sessionToken" ? await callers!.session(raw) : null;
      const developer = options.auth === "developer" ? await callers!.developer(raw) : null;
      const scope = idempotencyScope(options.auth, app, session);
      const idempotencyKey = takesIdempotencyKey(raw.method, options.auth) && scope ? raw.headers.get("idempotency-key") : null;
      // A step of the hosted flow needs an open session; with an Idempotency-Key
      // the replay of a step that closed it comes first.
      const stepOnSession = session !== null && changesSession(raw.method) && !(options.answersDecidedSession && callers!.isDecided(session));
      if (stepOnSession && idempotencyKey === null) callers!.assertOpen(session);

      let upload: Upload | null = null;
      let rawBody = "";
      let value: unknown;
      if (options.beforeBody) await options.beforeBody(req, params);
      if (options.upload) {
        if (session) await consumeRateLimit("session-uploads", session.id, env().SESSION_UPLOADS_PER_10_MINUTES, 600);
        upload = await readUpload(raw, options.upload);
      } else if (!options.rawBody) {
        ({ raw: rawBody, value } = await readJsonBody(req));
      }
      const body = options.body ? parseOrThrow(options.body, value ?? {}, "body") : undefined;
      const queryInput = Object.fromEntries(url.searchParams);
      const query = options.query ? parseOrThrow(options.query, queryInput, "query") : queryInput;

      if (idempotencyKey !== null && scope) {
        const claim = await claimIdempotencyKey({
          scope,
          key: validateIdempotencyKey(idempotencyKey),
          method: raw.method,
          path: url.pathname,
          requestHash: fingerprint(raw.method, url.pathname, upload ? `upload:${uploadFingerprint(upload)}` : rawBody),
        });
        if (claim.kind === "replay") {
          const replayed: Rendered = {
            status: claim.status,
            headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", "Idempotent-Replayed": "true" },
            body: claim.body,
          };
          return withHeaders(replayed, requestId, claim.status < 400 ? rateHeaders : {});
        }
        claimId = claim.recordId;
        // Held for as long as the request runs: a retry gets 409 however slow it is.
        stopRenewing = renewIdempotencyClaim(claimId);
        if (stepOnSession) callers!.assertOpen(session!);
      }

      handlerStarted = true;
      const claim = claimId;
      // Set once the handler's transaction stored the answer: not stored again below.
      let answerCommitted = false;
      const commitAnswer = claim
        ? <T>(answer: (value: T) => Reply) =>
            async (tx: Tx, value: T) => {
              const rendered = renderReply(answer(value));
              await completeIdempotencyKeyIn(tx, claim, rendered.status, storedBody(rendered));
              answerCommitted = true;
            }
        : null;
      const result = await handler({ req, requestId, params, app, actor: caller?.actor ?? null, session, developer, body, upload, query, commitAnswer } as RouteContext<A, B, Q>);
      const rendered = renderReply(result instanceof Reply ? result : Reply.data(result));
      if (claimId && !answerCommitted) await completeIdempotencyKey(claimId, rendered.status, storedBody(rendered));
      return withHeaders(rendered, requestId, rateHeaders);
    } catch (err) {
      const error = err instanceof ApiError ? err : unexpected(err, raw, requestId);
      const rendered = renderReply(renderError(error, req));
      if (claimId) {
        // A handler's own 4xx is the request's answer and is replayed; a 5xx
        // is not stored, so a retry with the same key runs again.
        const store = handlerStarted && err instanceof ApiError && err.status < 500;
        await (store ? completeIdempotencyKey(claimId, rendered.status, storedBody(rendered)) : releaseIdempotencyKey(claimId)).catch((e) =>
          logger.error("idempotency bookkeeping failed", { requestId, ...describeError(e) }),
        );
      }
      return withHeaders(rendered, requestId, {});
    } finally {
      stopRenewing?.();
    }
  };
  return { serve };
}
