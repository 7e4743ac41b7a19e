import { describeError, logger } from "@/lib/log/logger";
import { ApiError } from "../api-error";
import { renderedError, type CoreRoute } from "../core/pipeline";
import type { Rendered } from "../core/reply";
import { REQUEST_ID_HEADER, type CoreRequest } from "../core/request";
import { drainable, trackBody, type BodyRead, type TrackedBody } from "./request-body";

/**
 * The core served as Next.js route handlers (Web Request -> Response). Next
 * has already decoded the path parameters; the node:http edge refused a
 * path that cannot be decoded before Next saw it. A body over the route's
 * limit is drained or refused unread as request-body.ts says; an unread
 * one's answer closes the connection.
 */
export type NextRouteContext = { params?: Promise<Record<string, string | string[] | undefined>> };
export type RouteHandler = ((req: Request, ctx: NextRouteContext) => Promise<Response>) & { route: CoreRoute };

async function readCapped(req: Request, cap: number): Promise<BodyRead> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > cap && !drainable(declared, cap)) return { refused: "unread" };
  if (!req.body) return { bytes: new Uint8Array(0) };
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total <= cap) chunks.push(value);
    else if (!drainable(total, cap)) {
      await reader.cancel().catch(() => {});
      return { refused: "unread" };
    } else chunks.length = 0; // over the limit: the rest is read and dropped
  }
  return total > cap ? { refused: "drained" } : { bytes: Buffer.concat(chunks, total) };
}

export function fromWebRequest(req: Request): CoreRequest & TrackedBody {
  return { method: req.method, url: req.url, headers: req.headers, ...trackBody((cap) => readCapped(req, cap)) };
}

/**
 * A Web Response for the rendered reply; `close` (a body refused unread)
 * adds `Connection: close`, on which Node ends the connection once the
 * answer is written, as the node:http adapter does.
 */
export function toWebResponse(rendered: Rendered, options: { close?: boolean } = {}): Response {
  const headers = new Headers();
  if (options.close) headers.set("Connection", "close");
  for (const [k, v] of Object.entries(rendered.headers)) {
    if (Array.isArray(v)) for (const one of v) headers.append(k, one);
    else headers.set(k, v);
  }
  const body = rendered.body === null || typeof rendered.body === "string" ? rendered.body : new Uint8Array(rendered.body);
  return new Response(body, { status: rendered.status, headers });
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

/** A rendered reply that cannot be written (e.g. a header that is not a byte string) is still a 500 in the envelope. */
function writable(rendered: Rendered, options: { close: boolean }): Response {
  try {
    return toWebResponse(rendered, options);
  } catch (err) {
    const requestId = String(rendered.headers[REQUEST_ID_HEADER] ?? "");
    logger.error("response could not be written", { requestId, ...describeError(err) });
    return toWebResponse(renderedError(new ApiError("server_error", { message: `Unexpected server error (request ${requestId})` }), requestId), options);
  }
}

export function nextRouteHandler(route: CoreRoute): RouteHandler {
  const handler = (async (req: Request, ctx: NextRouteContext) => {
    const core = fromWebRequest(req);
    const rendered = await route.serve(core, await resolveParams(ctx));
    return writable(rendered, { close: core.abandonedBody() });
  }) as RouteHandler;
  handler.route = route;
  return handler;
}
