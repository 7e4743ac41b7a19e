import type { IncomingMessage, ServerResponse } from "node:http";
import type { CoreRoute } from "../core/pipeline";
import type { Rendered } from "../core/reply";
import type { CoreRequest } from "../core/request";
import { trackBody, type TrackedBody } from "./request-body";

/**
 * The core served straight from node:http (the edge, lib/http/edge.ts):
 * used for the hottest endpoints, which skip Next's per-request cost, and
 * for what the edge answers itself. A body declared larger than the route
 * accepts is refused at once without waiting for it; the connection is then
 * closed rather than drained.
 */
type NodeRequest = CoreRequest & TrackedBody;

function readNodeBody(req: IncomingMessage, cap: number): Promise<Uint8Array | null> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > cap) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap) {
        req.off("data", onData);
        req.pause();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => resolve(Buffer.concat(chunks, size)));
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
