import type { IncomingMessage, ServerResponse } from "node:http";
import type { CoreRoute } from "../core/pipeline";
import type { Rendered } from "../core/reply";
import type { CoreRequest } from "../core/request";
import { drainable, trackBody, type BodyRead, type TrackedBody } from "./request-body";

/**
 * The core served straight from node:http (the edge, lib/http/edge.ts):
 * used for the hottest endpoints, which skip Next's per-request cost, and
 * for what the edge answers itself. A body over the route's limit is
 * drained or refused unread as request-body.ts says.
 */
type NodeRequest = CoreRequest & TrackedBody;

function readNodeBody(req: IncomingMessage, cap: number): Promise<BodyRead> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > cap && !drainable(declared, cap)) return Promise.resolve({ refused: "unread" });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= cap) chunks.push(chunk);
      else if (!drainable(size, cap)) {
        req.off("data", onData);
        req.pause();
        resolve({ refused: "unread" });
      } else chunks.length = 0; // over the limit: the rest is read and dropped
    };
    req.on("data", onData);
    req.once("end", () => resolve(size > cap ? { refused: "drained" } : { bytes: Buffer.concat(chunks, size) }));
    req.once("error", reject);
  });
}

export function fromNodeRequest(req: IncomingMessage, localOrigin: string): NodeRequest {
  return {
    method: req.method ?? "GET",
    // As in Next, the URL is the local one; the public origin comes from PUBLIC_BASE_URL.
    url: `${localOrigin}${req.url ?? "/"}`,
    headers: {
      get(name: string) {
        const value = req.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
      },
    },
    ...trackBody((cap) => readNodeBody(req, cap)),
  };
}

export function writeRendered(res: ServerResponse, rendered: Rendered, options: { close?: boolean } = {}) {
  const payload = rendered.body ?? "";
  const headers: Record<string, string | string[]> = { ...rendered.headers, "Content-Length": String(Buffer.byteLength(payload)) };
  if (options.close) headers.Connection = "close";
  res.writeHead(rendered.status, headers);
  res.end(payload);
}

export async function serveOnNode(route: CoreRoute, req: IncomingMessage, res: ServerResponse, localOrigin: string) {
  const core = fromNodeRequest(req, localOrigin);
  const rendered = await route.serve(core, {});
  writeRendered(res, rendered, { close: core.abandonedBody() });
}
