import { createHash, randomBytes } from "node:crypto";
import { compileErrors, validate } from "@readme/openapi-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/openapi/document";
import { api, bearer, createSession, createTenant, createWorkflow, keyHeader, shared, type Tenant } from "../support/api";
import { useServerDatabase } from "../support/domain";
import { redoclyProblems, swaggerParserErrors } from "../support/openapi-lint";

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
    // The served text, as served (@readme/openapi-parser's validate dereferences res.body in place).
    expect(await swaggerParserErrors(JSON.parse(res.text))).toBeNull();
    expect(await redoclyProblems(res.text)).toEqual([]);
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

describe("valid calls no other test makes through the contract check", () => {
  const form = { "content-type": "application/x-www-form-urlencoded" };
  const REDIRECT = "https://rp.example/callback";
  let oidcReady: Promise<void> | undefined;
  /** The production app `t` as an OIDC client: a registered redirect URI, the profile scope (userinfo needs it). */
  const registerRedirect = () =>
    (oidcReady ??= import("@/lib/tenancy/oidc-settings").then(async ({ addRedirectUri, setScopes }) => {
      await addRedirectUri(t.appId, REDIRECT);
      await setScopes(t.appId, ["openid", "profile"]);
    }));

  it("GET /api/health/live", async () => {
    const res = await api("GET", "/api/health/live");
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
  });

  it("GET /api/v2/flow/credential/states (otherwise called only by the browser tests, skipped without Chromium)", async () => {
    const res = await api("GET", "/api/v2/flow/credential/states", { headers: bearer(sessionToken) });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.states.length).toBeGreaterThan(0);
  });

  it("POST /api/auth/oidc/authorize: a form post starts the sign-in like the GET", async () => {
    await registerRedirect();
    const res = await api("POST", "/api/auth/oidc/authorize", {
      redirect: "manual",
      headers: form,
      raw: new URLSearchParams({
        client_id: t.clientId,
        redirect_uri: REDIRECT,
        response_type: "code",
        scope: "openid",
        state: "st-post",
        code_challenge: createHash("sha256").update(randomBytes(32).toString("base64url")).digest("base64url"),
        code_challenge_method: "S256",
      }).toString(),
    });
    expect(res.status, res.text).toBe(303);
    expect(res.headers.get("location")).toMatch(new RegExp(`^${shared().url}/oidc/interaction/[0-9a-f-]{36}$`));
  });

  it("POST /api/auth/oidc/userinfo with the access token, then POST /api/auth/oidc/logout revokes it and redirects with the state", async () => {
    await registerRedirect();
    // Sign-in and consent as the interaction records them (its pages are tested in oidc.test.ts), then the real code exchange.
    const { signInAccountByEmail } = await import("@/lib/accounts/accounts");
    const { createGrantWithCode } = await import("@/lib/oidc/grants/create-grant");
    const account = await signInAccountByEmail(`contract${Date.now()}${randomBytes(3).toString("hex")}@example.com`);
    const verifier = randomBytes(32).toString("base64url");
    const { code } = await createGrantWithCode({
      appId: t.appId, accountId: account.id, scope: "openid profile", nonce: null, authTime: new Date(),
      redirectUri: REDIRECT, codeChallenge: createHash("sha256").update(verifier).digest("base64url"),
    });
    const tokens = await api("POST", "/api/auth/oidc/token", {
      headers: form,
      raw: new URLSearchParams({
        grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier, client_id: t.clientId, client_secret: t.clientSecret,
      }).toString(),
    });
    expect(tokens.status, tokens.text).toBe(200);
    const userinfo = () => api("POST", "/api/auth/oidc/userinfo", { headers: { authorization: `Bearer ${tokens.body.access_token}` } });
    const info = await userinfo();
    expect(info.status, info.text).toBe(200);
    expect(info.body.sub).toBe(account.id);

    const out = await api("POST", "/api/auth/oidc/logout", {
      redirect: "manual",
      headers: form,
      raw: new URLSearchParams({ id_token_hint: tokens.body.id_token, post_logout_redirect_uri: REDIRECT, state: "bye" }).toString(),
    });
    expect(out.status, out.text).toBe(303);
    expect(out.headers.get("location")).toBe(`${REDIRECT}?state=bye`);
    expect((await userinfo()).status).toBe(401);
  });
});
