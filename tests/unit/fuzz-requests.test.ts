import { describe, expect, it } from "vitest";
import { documentedOperations, readOpenApiCopy } from "../support/contract-coverage";
import { answerProblems, fuzzRequests, type FuzzRequest } from "../support/fuzz-requests";

/**
 * The fuzzer of tests/integration/fuzz.test.ts: what it sends reaches every
 * part of a request, and what it flags is what the issue forbids (a 5xx, a
 * missing request id, a stack trace, an error outside the envelope).
 */
const doc = readOpenApiCopy();
const operations = documentedOperations(doc);
const find = (method: string, path: string) => operations.find((o) => o.method === method && o.path === path)!;
const generate = (method: string, path: string, count = 400, seed = 7) =>
  fuzzRequests(doc, { op: find(method, path), credentials: { authorization: "Bearer k" }, realId: () => "real-id" }, seed, count);

describe("fuzzRequests", () => {
  it("draws the same requests from the same seed, and others from another", () => {
    const labels = (rs: FuzzRequest[]) => rs.map((r) => `${r.label} ${typeof r.body === "string" ? r.body : ""}`);
    expect(labels(generate("POST", "/api/v2/session", 50))).toEqual(labels(generate("POST", "/api/v2/session", 50)));
    expect(labels(generate("POST", "/api/v2/session", 50, 8))).not.toEqual(labels(generate("POST", "/api/v2/session", 50)));
  });

  it("mutates path ids, query parameters, headers, each body field, the raw body and the content type", () => {
    const session = generate("POST", "/api/v2/session");
    for (const part of ["| field | workflow_id=", "| field | ttl_seconds=", "| raw |", "| content-type |", "Idempotency-Key hostile", "| credentials |"]) {
      expect(session.some((r) => r.label.includes(part)), part).toBe(true);
    }
    expect(session.some((r) => r.label.includes("body over 1 MB") && (r.body as string).length > 1_048_576)).toBe(true);
    expect(session.some((r) => r.label.includes("nesting 100,000 deep"))).toBe(true);
    const read = generate("GET", "/api/v2/session/{id}");
    expect(read.some((r) => r.url === "/api/v2/session/real-id")).toBe(true);
    expect(read.some((r) => r.url.startsWith("/api/v2/session/") && r.url !== "/api/v2/session/real-id")).toBe(true);
    expect(generate("GET", "/api/v2/session").some((r) => /[?&](status|vendor_data|limit)=/.test(r.url))).toBe(true);
  });

  it("fills uploads as multipart and the token endpoint as a form", () => {
    expect(generate("POST", "/api/v2/document", 50).some((r) => r.body instanceof FormData && r.body.has("front"))).toBe(true);
    expect(generate("POST", "/api/auth/oidc/token", 50).some((r) => r.headers["content-type"] === "application/json" || r.headers["content-type"] === "application/x-www-form-urlencoded")).toBe(true);
  });

  it("sends only header values HTTP can carry", () => {
    for (const op of operations) {
      for (const r of fuzzRequests(doc, { op, credentials: { authorization: "Bearer k" }, realId: () => undefined }, 3, 30)) {
        for (const value of Object.values(r.headers)) expect(value).toMatch(/^[^\u0000-\u0008\u000a-\u001f\u007f\u0100-\uffff]*$/);
      }
    }
  });
});

describe("answerProblems", () => {
  const check = (status: number, headers: Headers, text: string, path = "/api/v2/x") => answerProblems("POST /x", path, status, headers, text);
  const json = (extra: Record<string, string> = {}) => new Headers({ "content-type": "application/json", "x-request-id": "req_0123456789abcdef01234567", ...extra });
  const envelope = JSON.stringify({ success: false, data: [], error: { code: "invalid_request", message: "Invalid" } });

  it("accepts an error envelope with a request id, a success, and a browser route's error page", () => {
    expect(check(400, json(), envelope)).toEqual([]);
    expect(check(200, json(), '{"success":true,"data":{}}')).toEqual([]);
    expect(check(400, json({ "content-type": "text/html" }), "<html>bad</html>", "/oidc/interaction/x")).toEqual([]);
  });

  it("flags a 5xx, a missing request id, a stack trace, and an error outside the envelope", () => {
    expect(check(500, json(), envelope)[0]).toMatch(/^status 500: .* <- POST \/x$/);
    expect(check(400, new Headers({ "content-type": "application/json" }), envelope)).toEqual(["no X-Request-Id <- POST /x"]);
    expect(check(400, json(), `{"error":"TypeError: x\\n    at handler (/srv/app/node_modules/next/x.js:1:2)"}`)[0]).toMatch(/^leaks internals/);
    expect(check(400, json(), '{"error":"bad"}')[0]).toMatch(/^not the error envelope/);
    expect(check(400, json({ "content-type": "text/plain" }), "bad")[0]).toMatch(/^error as text\/plain/);
  });

  it("wants RFC 6749's body from the token endpoint for a form post, and the envelope for JSON", () => {
    const token = "/api/auth/oidc/token";
    const oauth = JSON.stringify({ error: "invalid_grant", error_description: "Used" });
    const form = "application/x-www-form-urlencoded";
    expect(answerProblems("POST token", token, 400, json(), oauth, form)).toEqual([]);
    expect(answerProblems("POST token", token, 400, json(), envelope, form)[0]).toMatch(/^not RFC 6749's error body/);
    expect(answerProblems("POST token", token, 400, json(), envelope, "application/json")).toEqual([]);
    expect(answerProblems("POST token", token, 400, json(), oauth, "application/json")[0]).toMatch(/^not the error envelope/);
    expect(answerProblems("POST x", "/api/v2/x", 400, json(), oauth, form)[0]).toMatch(/^not the error envelope/);
  });
});
