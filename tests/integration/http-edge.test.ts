import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { api, createTenant, rawRequest, shared } from "../support/api";
import { SHARED_SERVER_LOG } from "../support/global-setup";

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
    // A server that closes without answering fails the exchange at once.
    socket.on("close", () => reject(new Error(`connection closed after: ${JSON.stringify(data)}`)));
    socket.write(payload);
    if (options.endAfterWrite) socket.end();
  });
}

/** The first complete response in `data` (Content-Length or chunked framing) and what follows it, or null. */
function takeResponse(data: string): { head: string; body: string; rest: string } | null {
  const split = data.indexOf("\r\n\r\n");
  if (split < 0) return null;
  const head = data.slice(0, split);
  let at = split + 4;
  if (!/^transfer-encoding: chunked$/im.test(head)) {
    const length = Number(head.match(/content-length: (\d+)/i)?.[1] ?? "0");
    return data.length < at + length ? null : { head, body: data.slice(at, at + length), rest: data.slice(at + length) };
  }
  let body = "";
  for (;;) {
    const line = data.indexOf("\r\n", at);
    if (line < 0) return null;
    const size = parseInt(data.slice(at, line), 16);
    if (data.length < line + 2 + size + 2) return null;
    body += data.slice(line + 2, line + 2 + size);
    at = line + 2 + size + 2;
    if (size === 0) return { head, body, rest: data.slice(at) };
  }
}

/**
 * Writes `parts` on one keep-alive connection and resolves with the
 * responses the server wrote: once it has answered `answers` of them and
 * kept the connection open (`closed: false`), or when it closed the
 * connection (`closed: true`).
 */
function keepAliveExchange(parts: string[], answers: number): Promise<{ responses: Array<{ head: string; body: string }>; closed: boolean }> {
  const { port } = new URL(shared().url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), "127.0.0.1");
    let data = "";
    const responses: Array<{ head: string; body: string }> = [];
    const finish = (closed: boolean) => {
      socket.destroy();
      resolve({ responses, closed });
    };
    socket.setEncoding("latin1");
    socket.on("data", (chunk) => {
      data += chunk;
      for (let next = takeResponse(data); next; next = takeResponse(data)) {
        responses.push({ head: next.head, body: next.body });
        data = next.rest;
        if (responses.length === answers && !/^connection: close$/im.test(next.head)) return finish(false);
      }
    });
    // The server closing while the client still sends may reach the client as a reset.
    socket.on("error", () => finish(true));
    socket.on("close", () => finish(true));
    for (const part of parts) socket.write(part);
  });
}

/** A chunked body of `size` bytes of JSON-ish text, in 64 KB chunks, with its last chunk. */
function chunkedBody(size: number): string {
  const parts: string[] = [];
  for (let left = size; left > 0; left -= 65536) {
    const piece = "a".repeat(Math.min(left, 65536));
    parts.push(`${piece.length.toString(16)}\r\n${piece}\r\n`);
  }
  return `${parts.join("")}0\r\n\r\n`;
}

const HEALTH = "GET /api/health/live HTTP/1.1\r\nHost: x\r\n\r\n";

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

describe("a request body over the limit on a Next route ends the connection (no keep-alive stall)", () => {
  const post = (apiKey: string, framing: string) =>
    `POST /api/v2/session HTTP/1.1\r\nHost: x\r\nX-API-Key: ${apiKey}\r\nContent-Type: application/json\r\n${framing}\r\n\r\n`;

  it("a chunked body far over the limit is 413 with Connection: close, and the server closes the connection instead of leaving the next request hanging", { timeout: 30_000 }, async () => {
    const t = await createTenant();
    // 1 MB over the 1 MB limit plus the 2 MiB the server still reads and drops, then a second request on the same connection.
    const { responses, closed } = await keepAliveExchange([post(t.apiKey, "Transfer-Encoding: chunked"), chunkedBody(4_200_000), HEALTH], 2);
    expect(responses[0]!.head).toMatch(/^HTTP\/1\.1 413 /);
    expect(responses[0]!.head).toMatch(/^connection: close$/im);
    expect(responses[0]!.head).toMatch(/^x-request-id: req_[0-9a-f]{24}$/im);
    expectEnvelope(JSON.parse(responses[0]!.body), "request_too_large");
    // Before the fix the server answered "Connection: keep-alive" and then neither
    // answered the next request nor closed, for the 65 s keep-alive timeout.
    expect(closed).toBe(true);
    expect(responses).toHaveLength(1);
  });

  it("a body a little over the limit is read to its end and dropped: 413, and the next request on the connection is answered", { timeout: 30_000 }, async () => {
    const t = await createTenant();
    for (const framing of ["Transfer-Encoding: chunked", "Content-Length: 1300000"]) {
      const body = framing.startsWith("Content") ? "a".repeat(1_300_000) : chunkedBody(1_300_000);
      const { responses, closed } = await keepAliveExchange([post(t.apiKey, framing), body, HEALTH], 2);
      expect(responses.map((r) => r.head.split("\r\n")[0]), framing).toEqual(["HTTP/1.1 413 Payload Too Large", "HTTP/1.1 200 OK"]);
      expect(responses[0]!.head).not.toMatch(/^connection: close$/im);
      expectEnvelope(JSON.parse(responses[0]!.body), "request_too_large");
      expect(closed).toBe(false);
    }
  });

  it("a client that keeps writing a body the server refused still reads its 413 (no broken pipe): JSON and form routes", { timeout: 60_000 }, async () => {
    // What an HTTP client does: send the whole body, then read the answer. The OIDC token endpoint takes 64 KB, the API 1 MB.
    const t = await createTenant();
    const body = "x".repeat(1_100_000);
    for (let i = 0; i < 10; i++) {
      const token = await rawRequest("POST", `${shared().url}/api/auth/oidc/token`, { headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: `grant_type=${body}` });
      expect(token.status).toBe(413);
      const session = await rawRequest("POST", `${shared().url}/api/v2/session`, { headers: { "X-API-Key": t.apiKey, "Content-Type": "application/json" }, body: JSON.stringify({ vendor_data: body }) });
      expect(session.status).toBe(413);
      expectEnvelope(JSON.parse(session.text), "request_too_large");
    }
  });

  it("a body declared over the limit is 413 at once with Connection: close, without waiting for the body", { timeout: 30_000 }, async () => {
    const t = await createTenant();
    const { responses, closed } = await keepAliveExchange([post(t.apiKey, "Content-Length: 5000000")], 1);
    expect(responses[0]!.head).toMatch(/^HTTP\/1\.1 413 /);
    expect(responses[0]!.head).toMatch(/^connection: close$/im);
    expect(closed).toBe(true);
  });

  it("a chunked body within the limit keeps the connection: the next request on it is answered", { timeout: 30_000 }, async () => {
    const t = await createTenant();
    const small = '{"vendor_data":"keep-alive"}';
    const body = `${small.length.toString(16)}\r\n${small}\r\n0\r\n\r\n`;
    const { responses, closed } = await keepAliveExchange([post(t.apiKey, "Transfer-Encoding: chunked"), body, HEALTH], 2);
    expect(responses).toHaveLength(2);
    expect(responses[0]!.head).not.toMatch(/ 413 /);
    expect(responses[0]!.head).not.toMatch(/^connection: close$/im);
    expect(responses[1]!.head).toMatch(/^HTTP\/1\.1 200 /);
    expect(closed).toBe(false);
  });
});

describe("request targets and methods outside a path (RFC 9110 OPTIONS *, CONNECT, absolute-form)", () => {
  it("OPTIONS * (the server as a whole) is 204 with the methods the server serves", async () => {
    const res = await rawExchange("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(res.head).toMatch(/^HTTP\/1\.1 204 /);
    expect(res.head).toMatch(/^allow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS$/im);
    expect(res.head).toMatch(/^x-request-id: req_[0-9a-f]{24}$/im);
    // A route's own OPTIONS (a CORS preflight) still names the route's methods.
    const route = await rawExchange("OPTIONS /api/v2/session HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(route.head).toMatch(/^HTTP\/1\.1 204 /);
    expect(route.head).toMatch(/^allow: POST, GET, HEAD, OPTIONS$/im);
  });

  it("CONNECT is a 405 envelope with Allow that the client reads before the connection closes", async () => {
    for (const target of ["evil.example:443", "127.0.0.1:22"]) {
      const res = await rawExchange(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
      expect(res.head, target).toMatch(/^HTTP\/1\.1 405 /);
      expect(res.head).toMatch(/^allow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS$/im);
      expect(res.head).toMatch(/^x-request-id: req_[0-9a-f]{24}$/im);
      expect(res.head).toMatch(/^connection: close$/im);
      expectEnvelope(JSON.parse(res.body), "method_not_allowed");
    }
  });

  it("a CONNECT client that never closes its side is cut off by the server, not held open", { timeout: 40_000 }, async () => {
    const { port } = new URL(shared().url);
    const socket = net.connect({ port: Number(port), host: "127.0.0.1", allowHalfOpen: true });
    let answered = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => (answered += chunk));
    socket.write("CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n");
    // The client keeps writing on its open side; once the server has dropped the
    // socket a write is refused (reset). Without a bound it would go on forever.
    const cutOff = await new Promise<string>((resolve) => {
      const writer = setInterval(() => socket.write("x"), 250);
      const done = (why: string) => {
        clearInterval(writer);
        socket.destroy();
        resolve(why);
      };
      socket.on("error", (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
      socket.on("close", () => done("closed"));
    });
    expect(answered).toMatch(/^HTTP\/1\.1 405 /);
    expect(["ECONNRESET", "EPIPE", "closed"]).toContain(cutOff);
  });

  it("an absolute-form target naming another host (a proxy request) or * outside OPTIONS is a 400 envelope, never a redirect to the host it names", async () => {
    for (const target of ["http://evil.example/api/v2/session", "https://evil.example/verify/x?y=1", "http://127.0.0.1/api/health/live", "*"]) {
      const res = await rawExchange(`GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(res.head, target).toMatch(/^HTTP\/1\.1 400 /);
      expect(res.head).not.toMatch(/^location:/im);
      expect(res.head).toMatch(/^x-request-id: req_[0-9a-f]{24}$/im);
      expectEnvelope(JSON.parse(res.body), "invalid_request");
    }
    // The same resource asked for by its path is served, and so is the absolute-form naming this server (RFC 9112 3.2.2).
    const path = await rawExchange(HEALTH);
    expect(path.head).toMatch(/^HTTP\/1\.1 200 /);
    const own = await rawExchange(`GET ${shared().url}/api/health/live HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(own.head).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe("a client that goes away mid-body", () => {
  it("is logged as a closed request, never as a database outage", { timeout: 60_000 }, async () => {
    const t = await createTenant();
    const { port } = new URL(shared().url);
    const logged = (marker: string) => readFileSync(SHARED_SERVER_LOG, "utf8").split("\n").filter((line) => line.includes(marker));
    // Each attempt sends half of a declared body and disconnects. Whether the
    // route was already reading the body when the connection went is up to
    // the server's timing: attempts repeat (each on a path of its own) until
    // the server logs one of them.
    const paths: string[] = [];
    for (let attempt = 0; attempt < 20; attempt++) {
      const path = `/api/v2/webhooks/${randomUUID()}/test`;
      paths.push(path);
      await new Promise<void>((resolve) => {
        const socket = net.connect(Number(port), "127.0.0.1", () => {
          socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${t.apiKey}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"kind":`);
          // A later request on another connection is answered: the server has read the first one's headers by then.
          void api("GET", "/api/health/live").then(() => socket.destroy());
        });
        socket.on("error", () => {});
        socket.on("close", () => resolve());
      });
      const deadline = Date.now() + 5_000;
      while (Date.now() < deadline && logged(path).length === 0) await new Promise((r) => setTimeout(r, 50));
      if (logged(path).length > 0) break;
    }
    const lines = paths.flatMap(logged).map((line) => JSON.parse(line));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatchObject({ level: "info", message: "client closed the request" });
  });
});
