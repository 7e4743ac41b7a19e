import { describe, expect, it } from "vitest";
import { z } from "zod";
import { apiRoute, Reply, ROUTE_OPERATION, routeMethods, type DocumentedRouteHandler } from "@/lib/http/api-route";
import { operation } from "@/lib/http/operation";
import { API_OPERATIONS } from "@/lib/openapi/operations";
import { servedRoutes } from "../support/route-files";

/**
 * One contract per route (docs/architecture.md "One contract per route"):
 * every public route is `apiRoute(operation, handler)` of the very operation
 * object the OpenAPI document is written from, at the operation's method
 * and path. Nothing is parsed out of route files: the route modules are
 * imported and their handlers name their operations. Browser pages, the
 * developer portal's own API, Stripe's webhook and the legacy catch-alls are
 * not part of the public contract.
 */
const PUBLIC_ROUTE_FOLDERS = ["app/api/v2", "app/api/sdk", "app/api/auth/oidc", "app/api/.well-known", "app/.well-known", "app/api/health"];

describe("one contract per route", () => {
  it("every method of every public route file is served from its documented operation, at that operation's method and path", async () => {
    const served = (await Promise.all(PUBLIC_ROUTE_FOLDERS.map(servedRoutes))).flat();
    expect(served.length).toBeGreaterThan(50);
    const wrong = served
      .filter((r) => r.operation === undefined || r.operation.method.toUpperCase() !== r.method || r.operation.path !== r.path)
      .map((r) => `${r.method} ${r.path} (${r.file}) serves ${r.operation ? `${r.operation.method.toUpperCase()} ${r.operation.path}` : "no documented operation"}`);
    expect(wrong).toEqual([]);
    // Every documented operation is served, once, by the object the document lists (not a copy).
    const servedOps = served.map((r) => r.operation);
    const unserved = API_OPERATIONS.filter((op) => servedOps.filter((s) => s === op).length !== 1).map((op) => op.operationId);
    expect(unserved).toEqual([]);
  });

  describe("apiRoute(operation, handler)", () => {
    const op = operation({
      method: "post",
      path: "/api/v2/example/{id}",
      operationId: "example",
      summary: "Example",
      tag: "Examples",
      auth: "none",
      params: z.object({ id: z.string() }),
      body: z.object({ name: z.string() }).strict(),
      success: { status: 201, description: "Created.", schema: z.object({ id: z.string(), name: z.string() }) },
      errors: [],
    });

    it("types the handler from the operation, keeps the operation on the handler, and parses the body with its schema", async () => {
      const handler = apiRoute(op, async ({ params, body }) => ({ id: params.id, name: body.name }));
      expect((handler as DocumentedRouteHandler)[ROUTE_OPERATION]).toBe(op);
      const call = (body: string) =>
        handler(new Request("http://localhost/api/v2/example/x1", { method: "POST", body, headers: { "content-type": "application/json" } }), {
          params: Promise.resolve({ id: "x1" }),
        });
      const ok = await call(JSON.stringify({ name: "Ada" }));
      expect(ok.status).toBe(201);
      expect(await ok.json()).toEqual({ success: true, data: { id: "x1", name: "Ada" } });
      const refused = await call(JSON.stringify({ name: 7 }));
      expect(refused.status).toBe(400);
      expect((await refused.json()).error.code).toBe("invalid_request");
    });

    it("refuses at start-up a handler served at another method than its operation's, and serving options that contradict it", () => {
      const handler = apiRoute(op, async () => ({ id: "x", name: "y" }));
      expect(() => routeMethods({ GET: handler })).toThrow(/example is a POST, served as GET/);
      expect(() => apiRoute(op, async () => ({ id: "x", name: "y" }), { rawBody: true })).toThrow(/parsed by the core/);
      expect(() => apiRoute(op, async () => ({ id: "x", name: "y" }), { upload: { maxFiles: 1 } })).toThrow(/upload/);
    });

    // The type check (`npm run typecheck`, and next build's in `npm test`) fails if these stop being errors.
    it("refuses, when type checking, an answer that is not the success schema's type", () => {
      // @ts-expect-error: the answer is not the success schema's type (id must be a string, name is missing).
      apiRoute(op, async () => ({ id: 1 }));
      // @ts-expect-error: a Reply carrying another shape is refused too.
      apiRoute(op, async () => Reply.data({ other: true }, 201));
      apiRoute(op, async () => Reply.data({ id: "x", name: "y" }, 201));
    });
  });
});
