import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTenant, keyHeader, shared, type Tenant } from "../support/api";
import { startServer, type RunningServer } from "../support/server";

/**
 * Spec 8 / 7 rule 3: about 150 requests per minute per client IP on /api/v2;
 * X-RateLimit-Limit and X-RateLimit-Remaining on successful responses; 429
 * `rate_limited` with no Retry-After. These tests start servers of their own
 * with the spec's default budget.
 */
const redisUrl = process.env.TEST_REDIS_URL;
const servers: RunningServer[] = [];
let tenant: Tenant;

beforeAll(async () => {
  tenant = await createTenant();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

async function start(extra: Record<string, string> = {}) {
  const server = await startServer({ ...shared().env, ...extra });
  servers.push(server);
  return server;
}

function expect429(res: Awaited<ReturnType<typeof api>>) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ success: false, data: [], error: { code: "rate_limited", message: expect.any(String) } });
  expect(res.headers.get("retry-after")).toBeNull();
  expect(res.headers.get("x-request-id")).toBeTruthy();
}

describe("rate limit, one instance", () => {
  it("allows 150 requests a minute from one IP and answers the 151st with 429", async () => {
    const server = await start({ REDIS_KEY_PREFIX: `rl-${randomBytes(4).toString("hex")}:` });
    for (let i = 1; i <= 150; i++) {
      const res = await api("GET", "/api/v2/workflows", { headers: keyHeader(tenant), base: server.url });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBe("150");
      expect(res.headers.get("x-ratelimit-remaining")).toBe(String(150 - i));
    }
    expect429(await api("GET", "/api/v2/workflows", { headers: keyHeader(tenant), base: server.url }));
    // A made-up X-Forwarded-For does not buy a new budget without TRUST_PROXY.
    expect429(
      await api("GET", "/api/v2/workflows", {
        headers: { ...keyHeader(tenant), "X-Forwarded-For": "198.51.100.77" },
        base: server.url,
      }),
    );
    // Other surfaces keep working.
    expect((await api("GET", "/api/health", { base: server.url })).status).toBe(200);
  });
});

describe.skipIf(!redisUrl)("rate limit shared through Redis (TEST_REDIS_URL)", () => {
  it("two instances draw on one budget per client IP", async () => {
    const env = { REDIS_URL: redisUrl!, REDIS_KEY_PREFIX: `rl-${randomBytes(4).toString("hex")}:`, TRUST_PROXY: "1" };
    const [one, two] = await Promise.all([start(env), start(env)]);
    const client = { ...keyHeader(tenant), "X-Forwarded-For": "203.0.113.7" };
    for (let i = 0; i < 150; i++) {
      const res = await api("GET", "/api/v2/workflows", { headers: client, base: (i % 2 ? one : two).url });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-remaining")).toBe(String(149 - i));
    }
    expect429(await api("GET", "/api/v2/workflows", { headers: client, base: one.url }));
    expect429(await api("GET", "/api/v2/workflows", { headers: client, base: two.url }));
    // Another client IP (trusted from the proxy header) has its own budget.
    const other = await api("GET", "/api/v2/workflows", {
      headers: { ...keyHeader(tenant), "X-Forwarded-For": "203.0.113.8" },
      base: two.url,
    });
    expect(other.status).toBe(200);
    expect(other.headers.get("x-ratelimit-remaining")).toBe("149");
  });
});

describe("behind a proxy (TRUST_PROXY=1)", () => {
  it("counts the address the proxy saw (the right-most entry), never one the client wrote further left", async () => {
    const server = await start({ TRUST_PROXY: "1", RATE_LIMIT_PER_MINUTE: "3", REDIS_KEY_PREFIX: `rl-${randomBytes(4).toString("hex")}:` });
    const call = (forwarded: string) =>
      api("GET", "/api/v2/workflows", { headers: { ...keyHeader(tenant), "X-Forwarded-For": forwarded }, base: server.url });
    // A client writing a new address in front of each request gets no new budget.
    for (const forged of ["198.51.100.1", "198.51.100.2", "198.51.100.3"]) {
      expect((await call(`${forged}, 203.0.113.50`)).status).toBe(200);
    }
    expect429(await call("198.51.100.4, 203.0.113.50"));
    // Another client behind the same proxy has its own.
    expect((await call("203.0.113.51")).status).toBe(200);
  });
});

describe("the anonymous browser endpoints of the OpenID Connect provider", () => {
  it("the authorization request and the sign-in forms draw on a per-IP budget; the token endpoint does not", async () => {
    const server = await start({ RATE_LIMIT_PER_MINUTE: "3", REDIS_KEY_PREFIX: `rl-${randomBytes(4).toString("hex")}:` });
    const authorize = () => api("GET", "/api/auth/oidc/authorize?client_id=cli_nope&response_type=code&scope=openid", { base: server.url });
    for (let i = 0; i < 3; i++) expect((await authorize()).status).toBe(401); // unknown client: invalid_client, on a page
    const limited = await authorize();
    expect(limited.status).toBe(429);
    expect(limited.headers.get("content-type")).toMatch(/text\/html/); // a page, for the browser
    expect(limited.text).toContain("rate_limited");
    expect(limited.headers.get("x-request-id")).toMatch(/^req_/);
    const form = await api("POST", "/oidc/interaction/00000000-0000-4000-8000-000000000000/email", { raw: "email=a@b.co", base: server.url });
    expect(form.status).toBe(429);
    for (let i = 0; i < 5; i++) {
      const token = await api("POST", "/api/auth/oidc/token", { raw: "grant_type=password", headers: { "content-type": "application/x-www-form-urlencoded" }, base: server.url });
      expect(token.status).toBe(400);
    }
  });
});

describe("when Redis stops answering", () => {
  it("requests are still limited, per instance, and /api/health says so without the driver's details", async () => {
    const server = await startServer({ ...shared().env, REDIS_URL: "redis://127.0.0.1:1", RATE_LIMIT_PER_MINUTE: "3" }, { upWhen: [503] });
    servers.push(server);
    const health = await api("GET", "/api/health", { base: server.url });
    expect(health.status).toBe(503);
    expect(health.body.error.code).toBe("service_unavailable");
    expect(health.body.data).toMatchObject({ status: "degraded", database: { status: "ok" }, redis: { status: "unavailable" }, rate_limit: { store: "redis", status: "memory_fallback" } });
    expect(health.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|:1\b/);
    for (let i = 0; i < 3; i++) {
      const res = await api("GET", "/api/v2/workflows", { headers: keyHeader(tenant), base: server.url });
      expect(res.status).toBe(200);
    }
    expect429(await api("GET", "/api/v2/workflows", { headers: keyHeader(tenant), base: server.url }));
  });
});
