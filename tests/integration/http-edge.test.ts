import net from "node:net";
import { describe, expect, it } from "vitest";
import { api, rawRequest, shared } from "../support/api";

/**
 * What every response of the server carries and what the node:http edge
 * answers before Next (lib/http/edge.ts), on the shared production server.
 */
function expectRequestId(headers: Headers) {
  expect(headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{24}$/);
}

function expectEnvelope(body: unknown, code: string) {
  expect(body).toEqual({ success: false, data: expect.anything(), error: { code, message: expect.any(String) } });
}

/** Writes raw bytes to the server and resolves with what it answers (status line, headers, body). */
function rawExchange(payload: string, options: { endAfterWrite?: boolean } = {}): Promise<{ head: string; body: string }> {
  const { port } = new URL(shared().url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), "127.0.0.1");
    let data = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => {
      data += chunk;
      const split = data.indexOf("\r\n\r\n");
      if (split < 0) return;
      const head = data.slice(0, split);
      const length = Number(head.match(/content-length: (\d+)/i)?.[1] ?? "0");
      const body = data.slice(split + 4);
      if (Buffer.byteLength(body) >= length) {
        socket.destroy();
        resolve({ head, body });
      }
    });
    socket.on("error", reject);
    socket.write(payload);
    if (options.endAfterWrite) socket.end();
  });
}

describe("every response carries X-Request-Id (spec 2.1)", () => {
  it("pages, Next's own 404 page, static files and the API alike", async () => {
    for (const path of ["/", "/verify/7d0c1f1e-94a8-4a43-9b44-0c6a8d1d5b10", "/no-such-page", "/api/health"]) {
      const res = await fetch(`${shared().url}${path}`);
      expectRequestId(res.headers);
    }
  });

  it("POST /api/health/live is a 405 envelope with Allow; OPTIONS names the route's own methods", async () => {
    const post = await api("POST", "/api/health/live");
    expect(post.status).toBe(405);
    expectEnvelope(post.body, "method_not_allowed");
    expect(post.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expectRequestId(post.headers);
    const options = await api("OPTIONS", "/api/v2/session");
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("POST, GET, HEAD, OPTIONS");
    expectRequestId(options.headers);
  });
});

describe("the edge refuses what Next would answer with a 500", () => {
  it("TRACE on any path is a 405 envelope", async () => {
    for (const path of ["/api/v2/session", "/api/health", "/verify/x", "/"]) {
      const res = await rawRequest("TRACE", `${shared().url}${path}`);
      expect(res.status, path).toBe(405);
      expectEnvelope(JSON.parse(res.text), "method_not_allowed");
      expect(res.headers.get("allow")).toContain("GET");
      expectRequestId(res.headers);
    }
  });

  it("malformed percent-encoding or a NUL in the path is a 400 envelope", async () => {
    for (const path of ["/api/v2/session/%zz", "/api/v2/session/%ff%fe", "/api/v2/workflows/a%00b", "/verify/%e0%a4", "/api/v2/session?vendor_data=%ff"]) {
      const res = await api("GET", path);
      expect(res.status, path).toBe(400);
      expectEnvelope(res.body, "invalid_request");
      expectRequestId(res.headers);
    }
  });

  it("what Node's parser refuses before the app (unknown method, oversized headers) is in the envelope with an id", async () => {
    const unknown = await rawExchange("FOO /api/v2/session HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(unknown.head).toMatch(/^HTTP\/1\.1 400 /);
    expect(unknown.head).toMatch(/x-request-id: req_[0-9a-f]{24}/i);
    expectEnvelope(JSON.parse(unknown.body), "invalid_request");

    const big = await rawExchange(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(big.head).toMatch(/^HTTP\/1\.1 431 /);
    expect(big.head).toMatch(/x-request-id: req_[0-9a-f]{24}/i);
    expectEnvelope(JSON.parse(big.body), "headers_too_large");
  });
});

describe("the lean OIDC routes answer through the same core", () => {
  it("a token request declaring a body over the limit is refused at once, before the body is sent", async () => {
    // Only the headers are written: a server that waited for the declared
    // 100 MB would never answer, and this exchange would time out.
    const res = await rawExchange(
      "POST /api/auth/oidc/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000000\r\n\r\n",
    );
    expect(res.head).toMatch(/^HTTP\/1\.1 413 /);
    expect(res.head).toMatch(/x-request-id: req_[0-9a-f]{24}/i);
    expect(res.head).toMatch(/connection: close/i);
    // A form post (what OAuth clients send) is answered in RFC 6749's shape (5.2).
    expect(JSON.parse(res.body)).toEqual({ error: "request_too_large", error_description: expect.any(String) });
  });

  it("token and userinfo errors carry a request id; token errors are RFC 6749's body for a form post, the envelope for JSON", async () => {
    const token = await api("POST", "/api/auth/oidc/token", { raw: "grant_type=password", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(token.status).toBe(400);
    expect(token.body).toEqual({ error: "unsupported_grant_type", error_description: expect.any(String) });
    expectRequestId(token.headers);
    const json = await api("POST", "/api/auth/oidc/token", { raw: '{"grant_type":"password"}', headers: { "content-type": "application/json" } });
    expect(json.status).toBe(400);
    expectEnvelope(json.body, "unsupported_grant_type");
    expectRequestId(json.headers);
    const userinfo = await api("GET", "/api/auth/oidc/userinfo", { headers: { Authorization: "Bearer at_nope" } });
    expect(userinfo.status).toBe(401);
    expectEnvelope(userinfo.body, "invalid_token");
    expectRequestId(userinfo.headers);
  });
});
