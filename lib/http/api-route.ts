import type { HeaderValues } from "./core/reply";
import type { z } from "zod";
import { nextRouteHandler, type RouteHandler } from "./adapters/next";
import { ApiError } from "./api-error";
import { defineRoute, type AuthKind, type RouteContext, type RouteOptions } from "./core/pipeline";
import { Reply } from "./core/reply";

/**
 * Route files use these: `apiRoute(options, handler)` is a route of the one
 * HTTP core (lib/http/core/pipeline.ts) served as a Next route handler, and
 * `routeMethods` completes a route file's methods.
 */
export type { AuthKind, RouteContext, RouteHandler };
export { Reply };

/** A success envelope with a status other than 200 (e.g. 201). */
export function reply<T>(data: T, status = 200, headers: HeaderValues = {}) {
  return Reply.data(data, status, headers);
}

export function apiRoute<
  A extends AuthKind,
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
>(options: RouteOptions<A, B, Q>, handler: (ctx: RouteContext<A, B, Q>) => Promise<unknown>): RouteHandler {
  return nextRouteHandler(defineRoute(options, handler));
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];
type RouteFile = Record<Method | "OPTIONS", RouteHandler>;

/**
 * Fills in every method a route file does not define with a 405 in the
 * envelope (and an `Allow` header), and answers OPTIONS with 204 and the
 * route's real `Allow`, so Next never answers outside the core:
 * `export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: ..., POST: ... })`.
 */
export function routeMethods(defined: Partial<Record<Method, RouteHandler>>): RouteFile {
  const methods = Object.keys(defined) as Method[];
  const allow = [...methods, ...(methods.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const notAllowed = apiRoute({ auth: "none", rawBody: true }, async ({ req }) => {
    throw new ApiError("method_not_allowed", {
      message: `${req.method} is not allowed here; allowed: ${allow}`,
      headers: { Allow: allow },
    });
  });
  const options = apiRoute({ auth: "none", rawBody: true }, async () => Reply.empty(204, { Allow: allow }));
  return { ...Object.fromEntries(METHODS.map((m) => [m, defined[m] ?? notAllowed])), OPTIONS: options } as RouteFile;
}
