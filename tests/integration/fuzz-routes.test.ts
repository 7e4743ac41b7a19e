import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession, createTenant, createWorkflow, rawRequest, shared, type Tenant } from "../support/api";
import { ROOT } from "../support/server";
import { answerProblems } from "../support/fuzz-requests";

/**
 * Hostile input over every route, generated from the route files
 * (app/**\/route.ts), so a new route is covered without touching this
 * test. Each route is called with each method it serves (its OPTIONS
 * `Allow`) and with TRACE, with every credential a route may take
 * (an API key, organization client credentials and a hosted session's
 * token, all at once, so each route gets past authentication to its
 * parsing) and also without any. Every answer must be below 500, carry an
 * X-Request-Id, and under /api be the spec envelope, with no stack trace
 * or internal address.
 */
type RouteFile = { template: string; params: string[] };

function discoverRoutes(): RouteFile[] {
  const out: RouteFile[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "route.ts") {
        const rel = path.relative(path.join(ROOT, "app"), dir).split(path.sep).filter((s) => !/^\(.*\)$/.test(s));
        out.push({ template: `/${rel.join("/")}`, params: rel.filter((s) => s.startsWith("[")) });
      }
    }
  };
  walk(path.join(ROOT, "app"));
  return out.sort((a, b) => a.template.localeCompare(b.template));
}

const UUID = "7d0c1f1e-94a8-4a43-9b44-0c6a8d1d5b10";
/** Path parameter values: an unknown id, hostile text (the edge or the route must refuse them). */
const PARAM_VALUES = [UUID, "not-a-uuid", "%zz", "%ff%fe", "a%00b", "x".repeat(3000), "..%2F..%2Fetc%2Fpasswd", "%F0%9F%98%80", "constructor", "__proto__"];

const FIELDS = [
  "name", "features", "settings", "is_active", "workflow_id", "redirect_url", "callback", "vendor_data", "ttl_seconds",
  "metadata", "svc_access_token", "status", "kind", "limit", "lat", "lng", "latitude", "longitude", "accuracy", "challenge_id",
  "document_type", "members", "email", "svc_id", "notify", "invite", "grant_type", "code", "client_id", "client_secret",
  "redirect_uri", "refresh_token", "code_verifier", "scope", "state", "nonce", "csrf", "otp",
];
const HOSTILE_VALUES: unknown[] = [
  "a\u0000b", "\ud800", "\udfff tail", "x".repeat(100_000), -1, 1e308, -1e308, 2 ** 63, 0.5, true, null, [], {}, [[[[[[["deep"]]]]]]],
  { __proto__: { polluted: true } }, "<script>alert(1)</script>", "' OR 1=1 --", "../../etc/passwd", "https://[::ffff:7f00:1]/", "%00",
];

function hostileBodies(): Array<{ type: string; body: string }> {
  const json = (value: unknown) => ({ type: "application/json", body: JSON.stringify(value) });
  const bodies = [
    { type: "application/json", body: "{" },
    { type: "application/json", body: '{"a":1,}' },
    json(null),
    json([]),
    json("string"),
    json(12),
    { type: "application/json", body: '{"constructor":{"prototype":{"x":1}},"__proto__":{"x":1},"toString":1,"hasOwnProperty":"x","valueOf":[]}' },
    { type: "application/json", body: `${"[".repeat(5000)}${"]".repeat(5000)}` },
    { type: "application/json", body: `{"metadata":${'{"a":'.repeat(200)}1${"}".repeat(200)}}` },
    { type: "application/json", body: JSON.stringify({ name: "x".repeat(1_100_000) }) },
    { type: "text/plain", body: "hello" },
    { type: "application/x-www-form-urlencoded", body: "grant_type=%00&code=%ff&x=1&x=2" },
    { type: "multipart/form-data; boundary=zz", body: "--zz\r\nContent-Disposition: form-data; name=\"frames\"; filename=\"a.jpg\"\r\n\r\nnot an image\r\n--zz--\r\n" },
    { type: "multipart/form-data; boundary=zz", body: "garbage" },
    { type: "application/json", body: '{"name":"a\\u0000b","metadata":{"k":"\\ud800"},"vendor_data":"\\udfff"}' },
  ];
  for (const value of HOSTILE_VALUES) bodies.push(json(Object.fromEntries(FIELDS.map((f) => [f, value]))));
  return bodies;
}

const HOSTILE_QUERIES = [
  "?limit=-1", "?limit=1e309", "?limit=abc", "?status=%00", "?vendor_data=a%00b", "?status=APPROVED&status=DECLINED",
  "?__proto__=1&constructor=x", `?vendor_data=${"x".repeat(5000)}`, "?code=%ff", "?client_id=x&redirect_uri=javascript:alert(1)&response_type=code&scope=openid",
];

let tenant: Tenant;
let sessionToken: string;
let tried = 0;
let retried = 0;
const failures: string[] = [];

beforeAll(async () => {
  tenant = await createTenant();
  const workflow = await createWorkflow(tenant, ["liveness", "face_match", "location"]);
  sessionToken = (await createSession(tenant, { workflow_id: workflow })).session_token;
});

afterAll(() => {
  console.log(`fuzz: ${tried} hostile requests over ${discoverRoutes().length} route files (${retried} sent again after a reset)`);
});

function credentials(): Record<string, string> {
  return {
    "X-API-Key": tenant.apiKey,
    "X-Client-Id": tenant.clientId,
    "X-Client-Secret": tenant.clientSecret,
    "X-Session-Token": sessionToken,
  };
}

async function check(method: string, url: string, init: { headers?: Record<string, string>; body?: string } = {}) {
  tried++;
  let res: Awaited<ReturnType<typeof rawRequest>>;
  try {
    res = await rawRequest(method, `${shared().url}${url}`, init);
  } catch {
    // A connection reset while the request was being written is retried once, as HTTP
    // clients retry a request the server never read (1 in about 6,000 here, under load,
    // cause not yet found: see the note of session 19); a second one is a failure.
    retried++;
    try {
      res = await rawRequest(method, `${shared().url}${url}`, init);
    } catch (err) {
      failures.push(`${method} ${url.slice(0, 80)}: no answer, twice (${(err as Error).message})`);
      return;
    }
  }
  const where = `${method} ${url.slice(0, 100)} (${(init.body ?? "").slice(0, 60)})`;
  const requestType = Object.entries(init.headers ?? {}).find(([name]) => name.toLowerCase() === "content-type")?.[1];
  failures.push(...answerProblems(where, new URL(url, "http://x").pathname, res.status, res.headers, res.text, requestType));
}

/** Runs calls `limit` at a time. */
async function inParallel(calls: Array<() => Promise<void>>, limit = 6) {
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < calls.length) await calls[next++]!();
  }));
}

function fill(template: string, value: string) {
  return template.replace(/\[\[?\.{3}\w+\]?\]|\[\w+\]/g, value);
}

describe("hostile input over every route", () => {
  const routes = discoverRoutes();

  it("finds the route files (the sweep covers new routes by itself)", () => {
    expect(routes.length).toBeGreaterThan(30);
    expect(routes.map((r) => r.template)).toContain("/api/v2/session/[id]/decision");
  });

  it.each(routes.map((r) => [r.template, r] as const))("%s: never 5xx, always an id and the envelope", async (_name, route) => {
    failures.length = 0;
    const base = fill(route.template, route.params.length ? UUID : "");
    const options = await fetch(`${shared().url}${base}`, { method: "OPTIONS" });
    const allow = options.headers.get("allow");
    const methods = options.status === 204 && allow
      ? allow.split(",").map((m) => m.trim()).filter((m) => m !== "OPTIONS" && m !== "HEAD")
      : ["GET", "POST", "PUT", "PATCH", "DELETE"];
    const calls: Array<() => Promise<void>> = [];
    const urls = route.params.length ? PARAM_VALUES.map((v) => fill(route.template, v)) : [base];
    for (const url of urls) {
      for (const method of [...methods, "TRACE"]) {
        calls.push(() => check(method, url, { headers: credentials() }));
        calls.push(() => check(method, url));
      }
    }
    for (const method of methods) {
      if (method === "GET" || method === "DELETE") {
        for (const q of HOSTILE_QUERIES) calls.push(() => check(method, `${base}${q}`, { headers: credentials() }));
      } else {
        for (const { type, body } of hostileBodies()) {
          calls.push(() => check(method, base, { headers: { ...credentials(), "Content-Type": type }, body }));
        }
        calls.push(() => check(method, base, { headers: { ...credentials(), "Content-Type": "application/json", "Idempotency-Key": "\u00e9t\u00e9" }, body: "{}" }));
        calls.push(() => check(method, base, { headers: { ...credentials(), "Content-Type": "application/json", "Idempotency-Key": "k".repeat(300) }, body: "{}" }));
      }
    }
    await inParallel(calls);
    expect(failures).toEqual([]);
  });
});
