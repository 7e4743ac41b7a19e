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
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect((await res.json()).error.code).toBe("method_not_allowed");
  });

  it("routeMethods answers OPTIONS with 204, the route's own Allow and a request id", async () => {
    const methods = routeMethods({
      GET: apiRoute({ auth: "none" }, async () => ({ ok: true })),
      PATCH: apiRoute({ auth: "none" }, async () => ({ ok: true })),
    });
    const res = await methods.OPTIONS(new Request(url, { method: "OPTIONS" }), {});
    expect(res.status).toBe(204);
    expect(res.headers.get("allow")).toBe("GET, PATCH, HEAD, OPTIONS");
    expect(res.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{24}$/);
  });

  it("keeps the request id the edge assigned, and makes one when there is none or it is malformed", async () => {
    const handler = apiRoute({ auth: "none" }, async ({ requestId }) => ({ requestId }));
    const given = "req_0123456789abcdef01234567";
    const res = await handler(new Request(url, { headers: { "x-svc-request-id": given } }), {});
    expect(res.headers.get("x-request-id")).toBe(given);
    expect((await res.json()).data.requestId).toBe(given);
    const forged = await handler(new Request(url, { headers: { "x-svc-request-id": "req_<script>" } }), {});
    expect(forged.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{24}$/);
  });

  it("names every field in the error map, including ones called like built-in object properties", async () => {
    const handler = apiRoute({ auth: "none", body: z.strictObject({ name: z.string() }) }, async () => ({ ok: true }));
    const res = await handler(
      new Request(url, { method: "POST", body: '{"constructor":1,"toString":2,"__proto__":3,"hasOwnProperty":4}' }),
      {},
    );
    expect(res.status).toBe(400);
    const errors = (await res.json()).data.errors;
    expect(Object.keys(errors).sort()).toEqual(["__proto__", "constructor", "hasOwnProperty", "name", "toString"]);
    expect(errors.constructor).toEqual(["Unknown field"]);
  });

  it("refuses text that cannot be stored (NUL, unpaired surrogates) in the body, query and path, naming the field", async () => {
    const handler = apiRoute({ auth: "none", body: z.looseObject({}) }, async () => ({ ok: true }));
    const post = (raw: string) => handler(new Request(url, { method: "POST", body: raw }), {});
    for (const [raw, field] of [
      ['{"name":"a\\u0000b"}', "name"],
      ['{"metadata":{"note":"\\ud800"}}', "metadata.note"],
      ['{"list":["ok","\\udfff"]}', "list.1"],
      ['{"k\\u0000":"v"}', "body"],
    ] as const) {
      const res = await post(raw);
      expect(res.status, raw).toBe(400);
      const body = await res.json();
      expect(body.error.code).toBe("invalid_request");
      expect(Object.keys(body.data.errors)).toEqual([field]);
    }
    expect((await post('{"name":"a\\ud83d\\ude00b"}')).status).toBe(200); // a paired surrogate is an emoji
    const query = await handler(new Request(`${url}?vendor_data=a%00b`), {});
    expect(query.status).toBe(400);
    expect((await query.json()).data.errors).toHaveProperty("vendor_data");
    const path = await handler(new Request(url), { params: Promise.resolve({ id: "x\u0000" }) });
    expect(path.status).toBe(400);
  });

  it("answers 413 request_too_large for a body over the route's limit", async () => {
    const handler = apiRoute({ auth: "none", bodyLimit: 10 }, async () => ({ ok: true }));
    const res = await handler(new Request(url, { method: "POST", body: '{"a":"0123456789"}' }), {});
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe("request_too_large");
  });
});

describe("ApiError", () => {
  it("only accepts a status the catalogue lists for the code", () => {
    expect(new ApiError("invalid_request", { status: 422 }).status).toBe(422);
    expect(() => new ApiError("invalid_api_key", { status: 500 })).toThrow(/not catalogued/);
  });
});

describe("ApiError across copies of its module", () => {
  it("an ApiError thrown by another copy (another Next chunk) is still rendered as its own status, not a 500", async () => {
    vi.resetModules();
    const other = await import("@/lib/http/api-error");
    const thrown = new other.ApiError("token_missing");
    expect(other.ApiError).not.toBe(ApiError);
    expect(thrown instanceof ApiError).toBe(true);
    expect(new Error("plain") instanceof ApiError).toBe(false);
    const handler = apiRoute({ auth: "none" }, async () => {
      throw thrown;
    });
    const res = await handler(new Request(url), {});
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe("token_missing");
  });
});
