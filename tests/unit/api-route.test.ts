import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ApiError } from "@/lib/http/api-error";
import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";

// Paths outside /api/v2 and /api/sdk: no rate limit, and auth "none" needs no database.
const url = "http://localhost/api/unit";

afterEach(() => vi.restoreAllMocks());

describe("apiRoute", () => {
  it("turns an unexpected exception into a logged 500 server_error without internals", async () => {
    const writes: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: unknown) => {
      writes.push(String(chunk));
      return true;
    });
    const handler = apiRoute({ auth: "none" }, async () => {
      throw new Error("connection string postgres://secret@db leaked?");
    });
    const res = await handler(new Request(url), {});
    expect(res.status).toBe(500);
    const requestId = res.headers.get("x-request-id")!;
    expect(requestId).toMatch(/^req_/);
    const body = await res.json();
    expect(body).toEqual({ success: false, data: [], error: { code: "server_error", message: expect.any(String) } });
    expect(JSON.stringify(body)).not.toContain("secret");
    const logged = writes.join("");
    expect(logged).toContain(requestId);
    expect(logged).toContain("connection string postgres://secret@db leaked?");
  });

  it("renders an ApiError with its catalogued status and populated data", async () => {
    const handler = apiRoute({ auth: "none" }, async () => {
      throw new ApiError("review_not_pending", { data: { status: "APPROVED" } });
    });
    const res = await handler(new Request(url, { method: "PATCH" }), {});
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      success: false,
      data: { status: "APPROVED" },
      error: { code: "review_not_pending", message: "Manual decision on a session not IN_REVIEW" },
    });
  });

  it("validates the query and passes route params", async () => {
    const handler = apiRoute({ auth: "none", query: z.object({ limit: z.coerce.number().int().min(1) }) }, async ({ query, params }) =>
      reply({ limit: query.limit, id: params.id }, 201),
    );
    const ok = await handler(new Request(`${url}?limit=5`), { params: Promise.resolve({ id: "abc" }) });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toEqual({ success: true, data: { limit: 5, id: "abc" } });
    const bad = await handler(new Request(`${url}?limit=zero`), {});
    expect(bad.status).toBe(400);
    expect((await bad.json()).data.errors).toHaveProperty("limit");
  });

  it("routeMethods answers undefined methods with 405 and Allow", async () => {
    const methods = routeMethods({ GET: apiRoute({ auth: "none" }, async () => ({ ok: true })) });
    const res = await methods.DELETE(new Request(url, { method: "DELETE" }), {});
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
    expect((await res.json()).error.code).toBe("method_not_allowed");
  });
});

describe("ApiError", () => {
  it("only accepts a status the catalogue lists for the code", () => {
    expect(new ApiError("invalid_request", { status: 422 }).status).toBe(422);
    expect(() => new ApiError("invalid_api_key", { status: 500 })).toThrow(/not catalogued/);
  });
});
