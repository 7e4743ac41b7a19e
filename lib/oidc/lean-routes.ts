import type { IncomingMessage, ServerResponse } from "node:http";
import { env } from "@/lib/config/env";
import { describeError, logger } from "@/lib/log/logger";
import type { OidcRequest, OidcRoute, Reply } from "./http";
import { tokenRoute, userinfoRoute } from "./routes";

/**
 * The provider's hot paths, the token endpoint and userinfo, served straight
 * from server.mjs's node:http handler instead of through Next's request
 * pipeline, whose fixed cost per request (about half a millisecond of CPU)
 * was most of theirs. ARCHITECTURE.md planned for this: the handlers are
 * framework-neutral, so the very `serve` behind
 * app/api/auth/oidc/{token,userinfo}/route.ts runs here unchanged (same
 * wrapper, errors, headers and request ids); only the I/O adapter differs.
 * Any other method or path still goes to Next. Registered at start-up in
 * production only (in development Next reloads edited code, which a handler
 * registered once would not see).
 */
const ROUTES: Record<string, Partial<Record<string, OidcRoute>>> = {
  "/api/auth/oidc/token": { POST: tokenRoute },
  "/api/auth/oidc/userinfo": { GET: userinfoRoute, POST: userinfoRoute },
};

const MAX_BODY = 1024 * 1024;

type LeanServe = (req: IncomingMessage, res: ServerResponse) => boolean;
const globalForLean = globalThis as unknown as { __svcLeanRoutes?: LeanServe };

export function registerLeanRoutes() {
  if (!env().isProduction) return;
  globalForLean.__svcLeanRoutes = serveLean;
}

/** Takes the request when it is one of the lean routes (true), else leaves it to Next (false). */
export function serveLean(req: IncomingMessage, res: ServerResponse): boolean {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const route = ROUTES[q < 0 ? url : url.slice(0, q)]?.[req.method ?? ""];
  if (!route) return false;
  run(route, req, res, url).catch((err) => {
    logger.error("lean route failed", { path: url, ...describeError(err) });
    if (!res.headersSent) res.writeHead(500, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify({ success: false, data: [], error: { code: "server_error", message: "Unexpected server error" } }));
  });
  return true;
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on("end", () => resolve(size > MAX_BODY ? null : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** The OidcRequest the handlers read, over node's request (header names are lower-case there too). */
function leanRequest(req: IncomingMessage, url: string, body: string): OidcRequest {
  return {
    method: req.method ?? "GET",
    // As in Next, the URL is the local one; the public origin comes from PUBLIC_BASE_URL.
    url: `http://localhost:${env().PORT}${url}`,
    headers: {
      get(name: string) {
        const value = req.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
      },
    },
    text: async () => body,
  };
}

function write(res: ServerResponse, reply: Reply) {
  const payload = reply.body ?? "";
  reply.headers["Content-Length"] = String(Buffer.byteLength(payload));
  res.writeHead(reply.status, reply.headers);
  res.end(payload);
}

async function run(route: OidcRoute, req: IncomingMessage, res: ServerResponse, url: string) {
  const body = req.method === "POST" ? await readBody(req) : "";
  if (body === null) {
    res.setHeader("Connection", "close");
    write(res, {
      status: 413,
      headers: { "Content-Type": "application/json; charset=utf-8" },
      body: JSON.stringify({ success: false, data: [], error: { code: "request_too_large", message: "Request body too large" } }),
    });
    return;
  }
  write(res, await route.serve(leanRequest(req, url, body), {}));
}
