import { beforeAll, describe, expect, it } from "vitest";
import { api, createTenant, keyHeader, shared, type Tenant } from "../support/api";
import { cli } from "../support/cli";

let a: Tenant;
let b: Tenant;
beforeAll(async () => {
  [a, b] = await Promise.all([createTenant(), createTenant()]);
});

describe("verification API key (spec 5)", () => {
  it("is accepted in X-API-Key", async () => {
    const res = await api("GET", "/api/v2/workflows", { headers: { "X-API-Key": a.apiKey } });
    expect(res.status).toBe(200);
  });

  it("is accepted as Authorization: Bearer", async () => {
    const res = await api("GET", "/api/v2/workflows", { headers: { Authorization: `Bearer ${a.apiKey}` } });
    expect(res.status).toBe(200);
  });

  it.each([
    ["missing", {}],
    ["wrong", { "X-API-Key": "sk_test_not-a-real-key" }],
    ["a client secret instead of a key", { Authorization: "Bearer cs_test_nope" }],
    ["a Basic scheme", { Authorization: "Basic Zm9vOmJhcg==" }],
  ])("%s -> 401 invalid_api_key", async (_, headers) => {
    const res = await api("GET", "/api/v2/workflows", { headers: headers as Record<string, string> });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, data: [], error: { code: "invalid_api_key" } });
  });
});

describe("organization client credentials (spec 5)", () => {
  it("X-Client-Id + X-Client-Secret reach the app's organization", async () => {
    const res = await api("GET", "/api/sdk/members", {
      headers: { "X-Client-Id": a.clientId, "X-Client-Secret": a.clientSecret },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: { members: [], organization: { id: a.organizationId, name: expect.any(String) } },
    });
  });

  it.each([
    ["a wrong secret", () => ({ "X-Client-Id": a.clientId, "X-Client-Secret": "cs_test_wrong" })],
    ["another app's secret", () => ({ "X-Client-Id": a.clientId, "X-Client-Secret": b.clientSecret })],
    ["no secret", () => ({ "X-Client-Id": a.clientId })],
    ["an API key", () => ({ "X-API-Key": a.apiKey })],
  ])("%s -> 401 invalid_client", async (_, headers) => {
    const res = await api("GET", "/api/sdk/members", { headers: headers() as Record<string, string> });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, data: [], error: { code: "invalid_client" } });
  });
});

describe("tenancy: another project's resource is a 404 (spec 7 rule 2, 5 rule 9)", () => {
  it("a workflow of app A does not exist for app B", async () => {
    const created = await api("POST", "/api/v2/workflows", {
      headers: keyHeader(a),
      json: { name: "A's workflow", features: ["liveness"] },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.workflow.id;

    expect((await api("GET", `/api/v2/workflows/${id}`, { headers: keyHeader(a) })).status).toBe(200);
    for (const [method, json] of [["GET", undefined], ["PATCH", { name: "stolen" }], ["DELETE", undefined]] as const) {
      const res = await api(method, `/api/v2/workflows/${id}`, { headers: keyHeader(b), json });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, data: [], error: { code: "workflow_not_found" } });
    }
    const listB = await api("GET", "/api/v2/workflows", { headers: keyHeader(b) });
    expect(listB.body.data.workflows.map((w: { id: string }) => w.id)).not.toContain(id);
    // Untouched by B's attempts.
    const still = await api("GET", `/api/v2/workflows/${id}`, { headers: keyHeader(a) });
    expect(still.body.data.workflow.name).toBe("A's workflow");
  });

  it("the production app of the same organization shares nothing with its test app", async () => {
    const prod = await cli(
      ["app:create", "--org", a.organizationId, "--name", "Prod", "--env", "production"],
      shared().env,
    );
    expect(prod.api_key).toMatch(/^sk_live_/);
    const created = await api("POST", "/api/v2/workflows", {
      headers: keyHeader(a),
      json: { name: "test-only", features: ["location"] },
    });
    const id = created.body.data.workflow.id;
    const res = await api("GET", `/api/v2/workflows/${id}`, { headers: { "X-API-Key": prod.api_key } });
    expect(res.status).toBe(404);
  });

  it("a malformed id is a 404, not a 500", async () => {
    const res = await api("GET", "/api/v2/workflows/not-a-uuid'--", { headers: keyHeader(a) });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("workflow_not_found");
  });
});
