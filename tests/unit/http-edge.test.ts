import { describe, expect, it } from "vitest";
import { clientIpBehind, compileProxyTrust } from "@/lib/http/client-ip";
import { originFormOf, refuseAtEdge } from "@/lib/http/edge";
import { rateLimitBucketFor } from "@/lib/http/rate-limit";

const request = (peer: string, forwarded?: string) => ({
  headers: new Headers({ "x-svc-peer-ip": peer, ...(forwarded ? { "x-forwarded-for": forwarded } : {}) }),
});

describe("client IP behind proxies (TRUST_PROXY)", () => {
  it("without trusted proxies is the TCP peer, whatever X-Forwarded-For says", () => {
    expect(clientIpBehind(request("198.51.100.9", "203.0.113.1"), compileProxyTrust(null))).toBe("198.51.100.9");
  });

  it("with one proxy is the address that proxy saw: the right-most entry, never one a client wrote further left", () => {
    const one = compileProxyTrust(1);
    expect(clientIpBehind(request("10.0.0.2", "203.0.113.7"), one)).toBe("203.0.113.7");
    // A client that sends its own X-Forwarded-For cannot choose its address:
    // the proxy appends the real peer, and that right-most entry is taken.
    expect(clientIpBehind(request("10.0.0.2", "1.2.3.4, 5.6.7.8, 203.0.113.7"), one)).toBe("203.0.113.7");
    expect(clientIpBehind(request("10.0.0.2"), one)).toBe("10.0.0.2");
  });

  it("with two proxies skips both hops", () => {
    expect(clientIpBehind(request("10.0.0.2", "1.2.3.4, 203.0.113.7, 10.0.0.5"), compileProxyTrust(2))).toBe("203.0.113.7");
  });

  it("with proxy addresses trusts only those, stopping at the first address that is not one", () => {
    const trust = compileProxyTrust("loopback, 10.0.0.0/8");
    expect(clientIpBehind(request("127.0.0.1", "1.2.3.4, 203.0.113.7, 10.1.2.3"), trust)).toBe("203.0.113.7");
    // A peer that is not a trusted proxy is the client itself.
    expect(clientIpBehind(request("198.51.100.9", "203.0.113.7"), trust)).toBe("198.51.100.9");
  });
});

describe("the edge's refusals", () => {
  it("serves the usual methods and refuses the others with 405 and Allow", () => {
    for (const m of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) expect(refuseAtEdge(m, "/api/v2/session")).toBeNull();
    for (const m of ["TRACE", "CONNECT", "PROPFIND"]) {
      const refused = refuseAtEdge(m, "/api/v2/session")!;
      expect(refused.status).toBe(405);
      expect(refused.code).toBe("method_not_allowed");
      expect(refused.headers.Allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
    }
  });

  it("refuses targets that cannot be decoded or carry a NUL, and lets encoded ordinary text through", () => {
    for (const target of ["/api/v2/session/%zz", "/api/v2/session/%ff%fe", "/api/v2/session/%", "/x?a=%e0%a4", "/api/v2/session/a%00b"]) {
      const refused = refuseAtEdge("GET", target);
      expect(refused?.status, target).toBe(400);
      expect(refused?.code).toBe("invalid_request");
    }
    for (const target of ["/api/v2/session/abc", "/verify/a%20b?x=%C3%A9", "/api/v2/session?vendor_data=a%2Fb"]) {
      expect(refuseAtEdge("GET", target), target).toBeNull();
    }
  });
});

describe("request targets that are not a path", () => {
  it("lets OPTIONS * through (the server-wide OPTIONS) and refuses * with any other method", () => {
    expect(refuseAtEdge("OPTIONS", "*")).toBeNull();
    for (const m of ["GET", "POST", "DELETE"]) {
      expect(refuseAtEdge(m, "*")?.code, m).toBe("invalid_request");
    }
  });

  it("refuses absolute-form targets (proxy requests) with 400, whatever host they name", () => {
    for (const target of ["http://evil.example/api/v2/session", "https://localhost/verify/x", "HTTP://evil.example", "evil.example:443", "api/v2/session"]) {
      const refused = refuseAtEdge("GET", target);
      expect(refused?.status, target).toBe(400);
      expect(refused?.code).toBe("invalid_request");
    }
    expect(refuseAtEdge("GET", "/api/v2/session?next=http://evil.example/")).toBeNull();
  });

  it("serves an absolute-form target that names this server's public host as its path (RFC 9112 3.2.2), and only that one", () => {
    const host = "id.example.com";
    expect(originFormOf("https://id.example.com/api/v2/session?limit=2", host)).toBe("/api/v2/session?limit=2");
    expect(originFormOf("HTTP://ID.EXAMPLE.COM/verify/x", host)).toBe("/verify/x");
    expect(originFormOf("https://id.example.com", host)).toBe("/");
    for (const other of ["https://evil.example/api/v2/session", "https://id.example.com.evil.example/x", "https://id.example.com:8443/x", "https://user@id.example.com/x", "/api/v2/session", "*"]) {
      expect(originFormOf(other, host), other).toBe(other);
    }
  });
});

describe("rate-limit budgets", () => {
  it("limits the APIs and the anonymous browser endpoints of the OIDC provider, not its server-to-server endpoints", () => {
    expect(rateLimitBucketFor("/api/v2/session")).toBe("v2");
    expect(rateLimitBucketFor("/api/sdk/members")).toBe("sdk");
    expect(rateLimitBucketFor("/api/auth/oidc/authorize")).toBe("auth");
    expect(rateLimitBucketFor("/api/auth/oidc/logout")).toBe("auth");
    expect(rateLimitBucketFor("/oidc/interaction/abc/email")).toBe("auth");
    for (const p of ["/api/auth/oidc/token", "/api/auth/oidc/userinfo", "/api/auth/oidc/jwks.json", "/api/health", "/api/v2x"]) {
      expect(rateLimitBucketFor(p), p).toBeNull();
    }
  });
});
