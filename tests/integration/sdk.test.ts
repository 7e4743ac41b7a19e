import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, shared, type Tenant } from "../support/api";
import { recordAndCheck } from "../support/contract";
import { useServerDatabase } from "../support/domain";

/**
 * The SDK (sdk/) as an integrator uses it: built with its own tsconfig, then
 * its compiled output (sdk/dist) talks to the real server for a production
 * app. A POST whose response is lost is retried with the same
 * Idempotency-Key and runs once; 429 and 5xx are retried; the organization
 * client and the account reader authenticate as documented.
 */
useServerDatabase();

type Sdk = typeof import("../../sdk/src/index");
let sdk: Sdk;

/** The real fetch, each answer checked against the OpenAPI document like an `api()` answer. */
const checkedFetch = async (request: Request) => recordAndCheck(request.method, request.url, await fetch(request));
let t: Tenant;

beforeAll(async () => {
  const tsc = path.join(process.cwd(), "node_modules/.bin/tsc");
  const build = spawnSync(tsc, ["-p", "sdk/tsconfig.json"], { encoding: "utf8" });
  expect(build.status, build.stdout + build.stderr).toBe(0);
  // The package ships its generated types: without dist/schema.d.ts every response would be typed any.
  expect(fs.existsSync(path.join(process.cwd(), "sdk/dist/schema.d.ts"))).toBe(true);
  sdk = (await import(path.join(process.cwd(), "sdk/dist/index.js"))) as Sdk;
  t = await createTenant(undefined, "production");
}, 120_000);

describe("the SDK against the real server", () => {
  it("creates a workflow and a session; a lost response is retried with the same Idempotency-Key and runs once", async () => {
    const seen: Array<{ method: string; key: string | null }> = [];
    let lose = 1;
    const client = sdk.createVerificationClient({
      baseUrl: shared().url,
      apiKey: t.apiKey,
      delayMs: () => 10,
      async fetch(request) {
        seen.push({ method: request.method, key: request.headers.get("idempotency-key") });
        const response = await checkedFetch(request);
        if (request.method === "POST" && request.url.endsWith("/api/v2/session") && lose-- > 0) {
          return new Response("upstream lost the answer", { status: 502 }); // processed, answer lost
        }
        return response;
      },
    });
    const workflow = await client.POST("/api/v2/workflows", { body: { name: "SDK KYC", features: ["location"] } });
    expect(workflow.response.status).toBe(201);
    const workflowId = workflow.data!.data.workflow.id;
    const vendorData = `sdk-${Date.now()}`;
    const created = await client.POST("/api/v2/session", { body: { workflow_id: workflowId, vendor_data: vendorData } });
    expect(created.response.status).toBe(201);
    expect(created.response.headers.get("idempotent-replayed")).toBe("true");
    const posts = seen.filter((s) => s.method === "POST").slice(1);
    expect(posts).toHaveLength(2);
    expect(posts[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(posts[1]!.key).toBe(posts[0]!.key);
    const listed = await client.GET("/api/v2/session", { params: { query: { vendor_data: vendorData } } });
    expect(listed.data!.data.sessions).toHaveLength(1);
    const decision = await client.GET("/api/v2/session/{id}/decision", { params: { path: { id: created.data!.data.session_id } } });
    expect(decision.data!.data.status).toBe("NOT_STARTED");
  });

  it("retries 429 and 5xx, then gives up with the last answer", async () => {
    const statuses = [429, 503];
    let calls = 0;
    const client = sdk.createVerificationClient({
      baseUrl: shared().url,
      apiKey: t.apiKey,
      delayMs: () => 5,
      async fetch(request) {
        calls++;
        const status = statuses.shift();
        return status ? new Response("{}", { status }) : checkedFetch(request);
      },
    });
    const list = await client.GET("/api/v2/workflows");
    expect(list.response.status).toBe(200);
    expect(calls).toBe(3);
    const failing = sdk.createVerificationClient({ baseUrl: shared().url, apiKey: t.apiKey, maxRetries: 2, delayMs: () => 1, fetch: async () => new Response("{}", { status: 500 }) });
    expect((await failing.GET("/api/v2/workflows")).response.status).toBe(500);
  });

  it("retries a 409 idempotency_in_progress (the same key still running) but not another 409", async () => {
    const inProgress = JSON.stringify({ success: false, data: [], error: { code: "idempotency_in_progress", message: "still running" } });
    const closed = JSON.stringify({ success: false, data: [], error: { code: "session_closed", message: "closed" } });
    let calls = 0;
    let answers = [inProgress, inProgress];
    const client = sdk.createVerificationClient({
      baseUrl: shared().url,
      apiKey: t.apiKey,
      delayMs: () => 5,
      async fetch(request) {
        calls++;
        const body = answers.shift();
        return body ? new Response(body, { status: 409, headers: { "content-type": "application/json" } }) : checkedFetch(request);
      },
    });
    expect((await client.POST("/api/v2/workflows", { body: { name: "SDK retry", features: ["location"] } })).response.status).toBe(201);
    expect(calls).toBe(3);
    calls = 0;
    answers = [closed];
    expect((await client.GET("/api/v2/workflows")).response.status).toBe(409);
    expect(calls).toBe(1);
  });

  it("reads the organization's billing with client credentials, and refuses a wrong secret with the documented error", async () => {
    const org = sdk.createOrganizationClient({ baseUrl: shared().url, clientId: t.clientId, clientSecret: t.clientSecret, fetch: checkedFetch });
    const billing = await org.GET("/api/sdk/billing");
    expect(billing.response.status).toBe(200);
    expect(billing.data!.data.currency).toBe("USD");
    const wrong = sdk.createOrganizationClient({ baseUrl: shared().url, clientId: t.clientId, clientSecret: "cs_wrong", maxRetries: 0, fetch: checkedFetch });
    const refused = await wrong.GET("/api/sdk/billing");
    expect(refused.response.status).toBe(401);
    expect((refused.error as { error: { code: string } }).error.code).toBe("invalid_client");
  });

  it("the account reader sends the access token; an unknown one is refused", async () => {
    const reader = sdk.createAccountReader({ baseUrl: shared().url, accessToken: "at_unknown", maxRetries: 0, fetch: checkedFetch });
    const res = await reader.verifications();
    expect(res.response.status).toBe(401);
  });
});
