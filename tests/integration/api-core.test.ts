import { beforeAll, describe, expect, it } from "vitest";
import { api, createTenant, keyHeader, type Tenant } from "../support/api";

let tenant: Tenant;
beforeAll(async () => {
  tenant = await createTenant();
});

function expectRequestId(headers: Headers) {
  expect(headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{24}$/);
}

describe("response envelopes (spec 2.1, 7)", () => {
  it("a success is { success: true, data } with no error key", async () => {
    const res = await api("GET", "/api/v2/workflows", { headers: keyHeader(tenant) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { workflows: [] } });
    expect(Object.keys(res.body)).not.toContain("error");
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expectRequestId(res.headers);
  });

  it("an error is { success: false, data: [], error: { code, message } }", async () => {
    const res = await api("GET", "/api/v2/workflows");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      success: false,
      data: [],
      error: { code: "invalid_api_key", message: expect.any(String) },
    });
    expectRequestId(res.headers);
  });

  it("every response gets its own request id", async () => {
    const a = await api("GET", "/api/v2/workflows", { headers: keyHeader(tenant) });
    const b = await api("GET", "/api/v2/workflows", { headers: keyHeader(tenant) });
    expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"));
  });
});

describe("unknown routes and methods", () => {
  it.each(["/api/v2/nope", "/api/sdk/nope/deeper", "/api/anything", "/api/v2/workflows/x/y/z"])(
    "%s answers a 404 envelope with a request id",
    async (path) => {
      for (const method of ["GET", "POST", "DELETE"]) {
        const res = await api(method, path);
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ success: false, data: [], error: { code: "endpoint_not_found" } });
        expectRequestId(res.headers);
      }
    },
  );

  it("a wrong method is a 405 envelope with Allow", async () => {
    const res = await api("PUT", "/api/v2/workflows", { headers: keyHeader(tenant), json: {} });
    expect(res.status).toBe(405);
    expect(res.body).toMatchObject({ success: false, data: [], error: { code: "method_not_allowed" } });
    expect(res.headers.get("allow")).toBe("GET, POST, HEAD, OPTIONS");
    expectRequestId(res.headers);
  });
});

describe("request bodies", () => {
  it("malformed JSON is 400 invalid_request", async () => {
    const res = await api("POST", "/api/v2/workflows", {
      headers: { ...keyHeader(tenant), "content-type": "application/json" },
      raw: '{"name": "x", "features": [',
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, data: [], error: { code: "invalid_request", message: "Malformed JSON body" } });
    expectRequestId(res.headers);
  });

  it("validation errors are 400 invalid_request with a per-field map in data.errors", async () => {
    const res = await api("POST", "/api/v2/workflows", {
      headers: keyHeader(tenant),
      json: { name: "", features: ["liveness", "telepathy"], is_active: "yes" },
    });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe("invalid_request");
    expect(Object.keys(res.body.data.errors).sort()).toEqual(["features.1", "is_active", "name"]);
    expect(res.body.data.errors["features.1"][0]).toMatch(/Unknown feature/);
  });

  it("a missing body reports each required field", async () => {
    const res = await api("POST", "/api/v2/workflows", { headers: keyHeader(tenant) });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.data.errors).sort()).toEqual(["features", "name"]);
  });

  it("a body that is not an object is reported at the root", async () => {
    const res = await api("POST", "/api/v2/workflows", { headers: keyHeader(tenant), json: [1, 2] });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.data.errors)).toEqual(["body"]);
  });

  it("a body over 1 MB is 413 request_too_large", async () => {
    const res = await api("POST", "/api/v2/workflows", {
      headers: keyHeader(tenant),
      json: { name: "x".repeat(1_100_000), features: ["liveness"] },
    });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("request_too_large");
  });

  it("a valid create succeeds and applies the age rule (spec 2.3)", async () => {
    const res = await api("POST", "/api/v2/workflows", {
      headers: keyHeader(tenant),
      json: { name: "Age check", features: ["age"] },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.workflow).toMatchObject({ name: "Age check", features: ["id_verification", "age"], is_active: true });
  });
});

describe("health", () => {
  it("reports the database reachable", async () => {
    const res = await api("GET", "/api/health");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, data: { status: "ok", database: { status: "ok" } } });
    expectRequestId(res.headers);
  });
});
