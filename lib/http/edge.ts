import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { env } from "@/lib/config/env";
import { describeError, logger } from "@/lib/log/logger";
import { serveOnNode, writeRendered } from "./adapters/node";
import { ApiError } from "./api-error";
import { PEER_IP_HEADER } from "./client-ip";
import { isStorableText } from "./core/clean-input";
import { renderedError, withHeaders, type CoreRoute } from "./core/pipeline";
import { Reply, renderReply, type Rendered } from "./core/reply";
import { INTERNAL_REQUEST_ID_HEADER, newRequestId, REQUEST_ID_HEADER } from "./core/request";
import { processSlot } from "@/lib/process-slots";

/**
 * The node:http edge: what server.mjs runs for every request before Next.
 * - every request gets its id (the X-Request-Id of every response, pages
 *   and Next's own answers included) and its TCP peer address, both
 *   overwriting anything a client sent under the internal header names;
 * - a method this server never serves (TRACE, CONNECT, WebDAV...) is 405,
 *   and a target with malformed percent-encoding or a NUL is 400, in the
 *   spec envelope, before Next could answer them with its own 500;
 * - a target that is not a path is never routed: `OPTIONS *` (RFC 9110
 *   9.3.7, the server as a whole) is 204 with the served methods in `Allow`,
 *   an absolute-form target naming this server's public host is served as
 *   its path (RFC 9112 3.2.2), one naming another host (a proxy request) or
 *   `*` with another method is 400 (Next would redirect to the named host);
 * - CONNECT, which Node hands to the server's `connect` event instead of a
 *   request, is 405 written on the socket, which then closes;
 * - `routes` (production only: the OIDC token and userinfo endpoints) are
 *   served by the core straight from node:http, without Next's cost;
 * - what Node's HTTP parser refuses before any request exists (oversized
 *   headers 431, an unknown method or malformed request 400, a request that
 *   never finished arriving 408) is answered in the envelope with an id too.
 */
export type EdgeRoutes = Record<string, Partial<Record<string, CoreRoute>>>;
type NextHandler = (req: IncomingMessage, res: ServerResponse) => unknown;
export type HttpEdge = {
  serve(req: IncomingMessage, res: ServerResponse, next: NextHandler): void;
  clientError(err: Error & { code?: string }, socket: Duplex): void;
  /** A CONNECT request (server.mjs's `connect` event): its socket is no longer an HTTP exchange. */
  connect(req: IncomingMessage, socket: Duplex): void;
};

export const SERVED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const SERVED = new Set<string>(SERVED_METHODS);
const ALLOW = SERVED_METHODS.join(", ");
/** The request target of a server-wide OPTIONS (RFC 9110 7.1, asterisk-form). */
const WHOLE_SERVER = "*";

function methodNotServed(method: string): ApiError {
  return new ApiError("method_not_allowed", { message: `${method} is not supported by this server`, headers: { Allow: ALLOW } });
}

/** Why the edge refuses a request before routing it, or null. */
export function refuseAtEdge(method: string, target: string): ApiError | null {
  if (!SERVED.has(method)) return methodNotServed(method);
  if (target === WHOLE_SERVER) {
    return method === "OPTIONS" ? null : new ApiError("invalid_request", { message: "The request target * is for OPTIONS only" });
  }
  if (!target.startsWith("/")) {
    return new ApiError("invalid_request", { message: "The request target must be a path (origin-form): this server is not a proxy" });
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    return new ApiError("invalid_request", { message: "The request target has malformed percent-encoding" });
  }
  if (!isStorableText(decoded)) {
    return new ApiError("invalid_request", { message: "The request target contains a NUL or an unpaired surrogate" });
  }
  return null;
}

/**
 * RFC 9112 3.2.2: an origin server accepts the absolute-form. A target that
 * names this server's public host (PUBLIC_BASE_URL's, any scheme: TLS may end
 * at a proxy) is served as its origin-form (path and query); any other
 * absolute target is left as it is, for refuseAtEdge to refuse.
 */
export function originFormOf(target: string, publicHost: string): string {
  if (!/^https?:\/\//i.test(target)) return target;
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return target;
  }
  if (url.host !== publicHost || url.username || url.password) return target;
  return `${url.pathname}${url.search}`;
}

/** The answer to `OPTIONS *`: the methods this server serves anywhere (each route's OPTIONS names its own). */
function wholeServerOptions(requestId: string): Rendered {
  return withHeaders(renderReply(Reply.empty(204, { Allow: ALLOW })), requestId);
}

/** How long a socket answered by endSocketWithError may stay half-open for the client to read and close. */
const LINGER_MS = 5_000;

/**
 * An error written straight on a socket that is no longer (or not yet) an
 * HTTP exchange, then the connection closes: our side at once, and the whole
 * socket after LINGER_MS if the client never closes its side (Node's
 * keep-alive and request timeouts no longer watch such a socket).
 */
function endSocketWithError(socket: Duplex, error: ApiError, requestId: string) {
  const linger = setTimeout(() => socket.destroy(), LINGER_MS);
  linger.unref();
  socket.once("close", () => clearTimeout(linger));
  const rendered = renderedError(error, requestId);
  const body = rendered.body ?? "";
  const lines = [`HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ""}`];
  for (const [k, v] of Object.entries(rendered.headers)) for (const one of [v].flat()) lines.push(`${k}: ${one}`);
  lines.push(`Content-Length: ${Buffer.byteLength(body)}`, "Connection: close", "", "");
  socket.end(lines.join("\r\n") + body);
}

function clientErrorFor(err: Error & { code?: string }): ApiError {
  switch (err.code) {
    case "HPE_HEADER_OVERFLOW":
      return new ApiError("headers_too_large");
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new ApiError("request_timeout");
    case "HPE_INVALID_METHOD":
      return new ApiError("invalid_request", { message: "Unknown HTTP method" });
    default:
      return new ApiError("invalid_request", { message: "Malformed HTTP request" });
  }
}

/** Whether the request may carry a body the edge does not read: its answer then closes the connection. */
function mayHaveBody(req: IncomingMessage): boolean {
  return req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined;
}

export function createHttpEdge(routes: EdgeRoutes): HttpEdge {
  const localOrigin = `http://localhost:${env().PORT}`;
  const publicHost = new URL(env().PUBLIC_BASE_URL).host;
  return {
    serve(req, res, next) {
      const requestId = newRequestId();
      req.headers[INTERNAL_REQUEST_ID_HEADER] = requestId;
      req.headers[PEER_IP_HEADER] = req.socket.remoteAddress ?? "unknown";
      res.setHeader(REQUEST_ID_HEADER, requestId);
      const method = req.method ?? "GET";
      const target = originFormOf(req.url ?? "/", publicHost);
      req.url = target;
      const refused = refuseAtEdge(method, target);
      if (refused) {
        writeRendered(res, renderedError(refused, requestId), { close: mayHaveBody(req) });
        return;
      }
      if (target === WHOLE_SERVER) {
        writeRendered(res, wholeServerOptions(requestId), { close: mayHaveBody(req) });
        return;
      }
      const q = target.indexOf("?");
      const route = routes[q < 0 ? target : target.slice(0, q)]?.[method];
      if (route) {
        serveOnNode(route, req, res, localOrigin).catch((err) => {
          logger.error("edge route failed", { requestId, path: target, ...describeError(err) });
          if (!res.headersSent) writeRendered(res, renderedError(new ApiError("server_error"), requestId));
          else res.destroy();
        });
        return;
      }
      next(req, res);
    },

    clientError(err, socket) {
      if (err.code === "ECONNRESET" || !socket.writable) {
        socket.destroy();
        return;
      }
      endSocketWithError(socket, clientErrorFor(err), newRequestId());
    },

    connect(req, socket) {
      // Node no longer watches this socket: a reset must not become an uncaught error.
      socket.on("error", () => socket.destroy());
      endSocketWithError(socket, methodNotServed(req.method ?? "CONNECT"), newRequestId());
    },
  };
}

const httpEdgeSlot = processSlot<HttpEdge>("httpEdge");

/** Hands the edge to server.mjs, which holds requests until it is registered. */
export function registerHttpEdge(routes: EdgeRoutes) {
  httpEdgeSlot.value = createHttpEdge(routes);
}
