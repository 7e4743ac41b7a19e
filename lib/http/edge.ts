import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { env } from "@/lib/config/env";
import { describeError, logger } from "@/lib/log/logger";
import { serveOnNode, writeRendered } from "./adapters/node";
import { ApiError } from "./api-error";
import { PEER_IP_HEADER } from "./client-ip";
import { isStorableText } from "./core/clean-input";
import { renderedError, type CoreRoute } from "./core/pipeline";
import { INTERNAL_REQUEST_ID_HEADER, newRequestId, REQUEST_ID_HEADER } from "./core/request";

/**
 * The node:http edge: what server.mjs runs for every request before Next.
 * - every request gets its id (the X-Request-Id of every response, pages
 *   and Next's own answers included) and its TCP peer address, both
 *   overwriting anything a client sent under the internal header names;
 * - a method this server never serves (TRACE, CONNECT, WebDAV...) is 405,
 *   and a target with malformed percent-encoding or a NUL is 400, in the
 *   spec envelope, before Next could answer them with its own 500;
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
};

export const SERVED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const SERVED = new Set<string>(SERVED_METHODS);

/** Why the edge refuses a request before routing it, or null. */
export function refuseAtEdge(method: string, target: string): ApiError | null {
  if (!SERVED.has(method)) {
    return new ApiError("method_not_allowed", {
      message: `${method} is not supported by this server`,
      headers: { Allow: SERVED_METHODS.join(", ") },
    });
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

export function createHttpEdge(routes: EdgeRoutes): HttpEdge {
  const localOrigin = `http://localhost:${env().PORT}`;
  return {
    serve(req, res, next) {
      const requestId = newRequestId();
      req.headers[INTERNAL_REQUEST_ID_HEADER] = requestId;
      req.headers[PEER_IP_HEADER] = req.socket.remoteAddress ?? "unknown";
      res.setHeader(REQUEST_ID_HEADER, requestId);
      const method = req.method ?? "GET";
      const target = req.url ?? "/";
      const refused = refuseAtEdge(method, target);
      if (refused) {
        const mayHaveBody = req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined;
        writeRendered(res, renderedError(refused, requestId), { close: mayHaveBody });
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
      const error = clientErrorFor(err);
      const rendered = renderedError(error, newRequestId());
      const body = rendered.body ?? "";
      const lines = [`HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ""}`];
      for (const [k, v] of Object.entries(rendered.headers)) for (const one of [v].flat()) lines.push(`${k}: ${one}`);
      lines.push(`Content-Length: ${Buffer.byteLength(body)}`, "Connection: close", "", "");
      socket.end(lines.join("\r\n") + body);
    },
  };
}

const globalForEdge = globalThis as unknown as { __svcHttpEdge?: HttpEdge };

/** Hands the edge to server.mjs, which holds requests until it is registered. */
export function registerHttpEdge(routes: EdgeRoutes) {
  globalForEdge.__svcHttpEdge = createHttpEdge(routes);
}
