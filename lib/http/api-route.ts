import type { HeaderValues } from "./core/reply";
import type { z } from "zod";
import { nextRouteHandler, type RouteHandler } from "./adapters/next";
import { ApiError } from "./api-error";
import { defineRoute, type AuthKind, type CoreRoute, type RouteContext, type RouteOptions } from "./core/pipeline";
import { Reply } from "./core/reply";
import type { Operation, OperationAuth, OperationSuccess } from "./operation";

/**
 * Route files use these. A documented route is `apiRoute(operation,
 * handler)`: the operation (lib/openapi/operations/) is its one declaration
 * of method, path, auth, params, query, body and success schemas, the same
 * object the OpenAPI document is written from; the handler's context is
 * typed from it and its answer must be what the success schema describes.
 * A route outside the public contract (the portal's API, browser forms)
 * gives its options instead: `apiRoute({ auth: "developer", body }, handler)`.
 * Both are routes of the one HTTP core (lib/http/core/pipeline.ts) served as
 * Next route handlers; `routeMethods` completes a route file's methods.
 */
export type { AuthKind, RouteContext, RouteHandler };
export { Reply };

/** A success envelope with a status other than 200 (e.g. 201). */
export function reply<T>(data: T, status = 200, headers: HeaderValues = {}): Reply<T> {
  return Reply.data(data, status, headers);
}

/**
 * The core's authentication for an operation's documented one. An OIDC
 * access token or an OAuth client's credentials are read by the provider's
 * own handlers (lib/oidc/), so the core lets those requests through.
 */
const CORE_AUTH = {
  apiKey: "apiKey",
  client: "client",
  sessionToken: "sessionToken",
  accessToken: "none",
  oauthClient: "none",
  none: "none",
} as const satisfies Record<OperationAuth, AuthKind>;

type CoreAuthOf<O extends Operation> = (typeof CORE_AUTH)[O["auth"]];
type SchemaOrNone<S> = S extends z.ZodType ? S : undefined;
type Successes<O extends Operation> = O["success"] extends readonly (infer S)[] ? S : O["success"];
type Carried<S> = S extends { schema: infer Z extends z.ZodType } ? z.output<Z> : never;

/** What a route of operation `O` answers: a success value (enveloped as `data`), or a Reply carrying one. */
export type OperationAnswer<O extends Operation> = Carried<Successes<O>> | Reply<Carried<Successes<O>>>;

/** The handler's context: the operation's path parameters by name, its query and body as its schemas parse them. */
export type OperationContext<O extends Operation> = Omit<RouteContext<CoreAuthOf<O>, SchemaOrNone<O["body"]>, SchemaOrNone<O["query"]>>, "params"> & {
  params: O["params"] extends z.ZodObject ? { [K in keyof z.output<O["params"]>]: string } : Record<never, string>;
};

/**
 * What a documented route adds that the document does not say: the upload's
 * limits (an operation with an `upload` needs them), how errors are shown
 * when the operation's `errorBody` is not the envelope, a body the handler
 * reads itself or ignores, and the body size limit.
 */
export type ServingOptions = Pick<RouteOptions<AuthKind, undefined, undefined>, "upload" | "renderError" | "rawBody" | "bodyLimit"> & {
  /**
   * The handler reads its query and body itself, by OAuth's rules (RFC 6749
   * 3.1: a repeated parameter is refused; form or JSON bodies): the
   * operation's schemas describe them and the core does not parse them
   * (the OIDC provider, lib/oidc/http.ts).
   */
  readsOwnParameters?: boolean;
};

/** The route's operation, kept on the handler: the route table the tests read (tests/support/route-table.ts). */
export const ROUTE_OPERATION = Symbol.for("svc.route-operation");
/** Marks routeMethods' 405 and OPTIONS fillers: methods a route file does not serve. */
export const NOT_SERVED = Symbol.for("svc.route-not-served");

export type DocumentedRouteHandler = RouteHandler & { [ROUTE_OPERATION]?: Operation };

/** The core's options for a documented operation; refuses (at start-up) serving options that contradict it. */
function optionsOf(op: Operation, serving: ServingOptions): RouteOptions<AuthKind, z.ZodType | undefined, z.ZodType | undefined> {
  const where = `${op.method.toUpperCase()} ${op.path}`;
  if (Boolean(op.upload) !== Boolean(serving.upload)) throw new Error(`${where}: an upload needs its limits, and limits need a documented upload`);
  if ((op.errorBody ?? "envelope") === "envelope" ? Boolean(serving.renderError) : !serving.renderError) {
    throw new Error(`${where}: errorBody "${op.errorBody ?? "envelope"}" and the route's renderError disagree`);
  }
  const own = serving.readsOwnParameters === true;
  if (op.body && serving.rawBody && !own) throw new Error(`${where}: a documented JSON body is parsed by the core, not read raw`);
  if (op.form && !own) throw new Error(`${where}: a form body is read by the handler (readsOwnParameters)`);
  return {
    auth: CORE_AUTH[op.auth],
    body: own ? undefined : op.body,
    query: own ? undefined : op.query,
    answersDecidedSession: op.answersDecidedSession,
    rawBody: own || serving.rawBody,
    upload: serving.upload,
    renderError: serving.renderError,
    bodyLimit: serving.bodyLimit,
  };
}

/** The core route of a documented operation (what an adapter serves: the Next route handler, or the node:http edge). */
export function operationRoute<const O extends Operation>(
  op: O,
  handler: (ctx: OperationContext<O>) => Promise<OperationAnswer<O>>,
  serving: ServingOptions = {},
): CoreRoute {
  // A plain answer is the operation's one success status (201 for a creation), in the envelope.
  const status = Array.isArray(op.success) ? 200 : (op.success as OperationSuccess).status;
  const answer = async (ctx: RouteContext<AuthKind, z.ZodType | undefined, z.ZodType | undefined>) => {
    const result = await handler(ctx as unknown as OperationContext<O>);
    return result instanceof Reply ? result : Reply.data(result, status);
  };
  return defineRoute(optionsOf(op, serving), answer);
}

export function apiRoute<const O extends Operation>(
  op: O,
  handler: (ctx: OperationContext<O>) => Promise<OperationAnswer<O>>,
  serving?: ServingOptions,
): DocumentedRouteHandler;
export function apiRoute<A extends AuthKind, B extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined>(
  options: RouteOptions<A, B, Q> & { operationId?: never },
  handler: (ctx: RouteContext<A, B, Q>) => Promise<unknown>,
): RouteHandler;
export function apiRoute(
  declared: Operation | RouteOptions<AuthKind, z.ZodType | undefined, z.ZodType | undefined>,
  handler: (ctx: never) => Promise<unknown>,
  serving: ServingOptions = {},
): RouteHandler {
  if (!isOperation(declared)) return nextRouteHandler(defineRoute(declared, handler as never));
  return servedRoute(declared, operationRoute(declared, handler as never, serving));
}

/** A core route of operation `op` as a Next route handler that names its operation. */
export function servedRoute(op: Operation, route: CoreRoute): DocumentedRouteHandler {
  return Object.assign(nextRouteHandler(route), { [ROUTE_OPERATION]: op });
}

function isOperation(value: object): value is Operation {
  return "operationId" in value && "path" in value;
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];
type RouteFile = Record<Method | "OPTIONS", RouteHandler>;

/**
 * Fills in every method a route file does not define with a 405 in the
 * envelope (and an `Allow` header), and answers OPTIONS with 204 and the
 * route's real `Allow`, so Next never answers outside the core:
 * `export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: ..., POST: ... })`.
 * A documented handler must be served at its operation's method.
 */
export function routeMethods(defined: Partial<Record<Method, RouteHandler>>): RouteFile {
  const methods = Object.keys(defined) as Method[];
  for (const method of methods) {
    const op = (defined[method] as DocumentedRouteHandler)[ROUTE_OPERATION];
    if (op && op.method.toUpperCase() !== method) throw new Error(`${op.operationId} is a ${op.method.toUpperCase()}, served as ${method}`);
  }
  const allow = [...methods, ...(methods.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const notAllowed = apiRoute({ auth: "none", rawBody: true }, async ({ req }) => {
    throw new ApiError("method_not_allowed", {
      message: `${req.method} is not allowed here; allowed: ${allow}`,
      headers: { Allow: allow },
    });
  });
  const options = apiRoute({ auth: "none", rawBody: true }, async () => Reply.empty(204, { Allow: allow }));
  const filler = (handler: RouteHandler) => Object.assign(handler, { [NOT_SERVED]: true });
  return {
    ...Object.fromEntries(METHODS.map((m) => [m, defined[m] ?? filler(notAllowed)])),
    OPTIONS: filler(options),
  } as unknown as RouteFile;
}
