import { compileErrors, validate } from "@readme/openapi-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/openapi/document";
import { api, bearer, createSession, createTenant, createWorkflow, keyHeader, type Tenant } from "../support/api";
import { useServerDatabase } from "../support/domain";

/**
 * The served OpenAPI document and its reference page, and every documented
 * operation called with missing credentials and with a malformed body on a
 * production app. `api()` checks each answer against the document
 * (support/contract.ts): an undeclared status or a body that does not match
 * its schema fails here, and the same check runs on every call of the other
 * integration tests.
 */
useServerDatabase();

type DocOperation = { security?: Record<string, string[]>[]; requestBody?: { content: Record<string, unknown> } };
const doc = openApiDocument();
const ops = Object.entries(doc.paths as Record<string, Record<string, DocOperation>>).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
);
const PLACEHOLDER = "00000000-0000-4000-8000-000000000000";
const concrete = (path: string) => path.replace(/\{state\}/g, "CA").replace(/\{[^}]+\}/g, PLACEHOLDER);
const schemesOf = (op: DocOperation) => new Set((op.security ?? []).flatMap((s) => Object.keys(s)));

let t: Tenant;
let sessionToken: string;

beforeAll(async () => {
  t = await createTenant(undefined, "production");
  const workflow = await createWorkflow(t, ["location"]);
  sessionToken = (await createSession(t, { workflow_id: workflow })).session_token;
});

/** Operations whose credentials this test can hold: an API key, client credentials, a session token. */
const withTenantCredentials = (op: DocOperation) => ["ApiKeyBearer", "ClientId", "SessionToken"].some((s) => schemesOf(op).has(s));

function credentialsFor(op: DocOperation): Record<string, string> {
  const schemes = schemesOf(op);
  if (schemes.has("ApiKeyBearer")) return keyHeader(t);
  if (schemes.has("ClientId")) return { "X-Client-Id": t.clientId, "X-Client-Secret": t.clientSecret };
  return bearer(sessionToken);
}

describe("the OpenAPI document", () => {
  it("is served at /api/v2/openapi.json, valid OpenAPI 3.1, the same the code builds", async () => {
    const res = await api("GET", "/api/v2/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(doc)));
    const result = await validate(res.body);
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
    expect(ops.length).toBeGreaterThan(40);
  });

  it("is rendered at /docs by a script served from this server, nothing from elsewhere", async () => {
    const page = await api("GET", "/docs");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.text).toContain("/api/v2/openapi.json");
    expect(page.text).toContain('src="/docs/scalar.js"');
    expect(page.text).not.toMatch(/https?:\/\/(cdn|fonts)\./);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    const script = await api("GET", "/docs/scalar.js");
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toMatch(/javascript/);
    expect(script.text.length).toBeGreaterThan(100_000);
  });
});

describe("every documented operation answers as documented", () => {
  it.each(ops.filter(({ op }) => withTenantCredentials(op) || schemesOf(op).has("OidcAccessToken")))(
    "$method $path without credentials",
    async ({ path, method }) => {
      const res = await api(method, concrete(path), method === "GET" || method === "DELETE" ? {} : { json: {} });
      expect(res.status).toBe(401);
      expect(res.body.success).toBe(false);
    },
  );

  it.each(ops.filter(({ op }) => op.requestBody && withTenantCredentials(op)))(
    "$method $path with a malformed body",
    async ({ path, method, op }) => {
      const res = await api(method, concrete(path), { headers: { ...credentialsFor(op), "content-type": "application/json" }, raw: "[1, 2]" });
      // A path naming nothing may answer 404 before the body is read; otherwise the body is refused.
      expect([400, 404]).toContain(res.status);
      if (res.status === 400) expect(res.body.error.code).toBe("invalid_request");
    },
  );
});
