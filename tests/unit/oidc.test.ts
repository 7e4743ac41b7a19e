import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";

/** Pure pieces of the OpenID Connect provider (lib/oidc). */
beforeAll(() => {
  process.env.ENCRYPTION_KEY ??= "11".repeat(32);
  process.env.PUBLIC_BASE_URL ??= "https://id.example.com";
});

const post = (body: string, type: string) =>
  new Request("http://localhost/api/auth/oidc/token", { method: "POST", headers: { "content-type": type }, body });

describe("request parameters", () => {
  it("reads form and JSON bodies alike", async () => {
    const { readParams } = await import("@/lib/oidc/http");
    const form = await readParams(post("grant_type=refresh_token&refresh_token=rt_a%2Bb", "application/x-www-form-urlencoded"), "body");
    expect(Object.fromEntries(form)).toEqual({ grant_type: "refresh_token", refresh_token: "rt_a+b" });
    const json = await readParams(post(JSON.stringify({ grant_type: "refresh_token", refresh_token: "rt_x" }), "application/json"), "body");
    expect(Object.fromEntries(json)).toEqual({ grant_type: "refresh_token", refresh_token: "rt_x" });
  });

  it("refuses a parameter given twice, a non-string JSON value and other content types", async () => {
    const { readParams } = await import("@/lib/oidc/http");
    await expect(readParams(post("code=a&code=b", "application/x-www-form-urlencoded"), "body")).rejects.toMatchObject({ code: "invalid_request" });
    await expect(readParams(post(JSON.stringify({ code: 1 }), "application/json"), "body")).rejects.toMatchObject({ code: "invalid_request" });
    await expect(readParams(post("<x/>", "text/xml"), "body")).rejects.toMatchObject({ code: "invalid_request" });
    await expect(readParams(new Request("http://localhost/a?state=1&state=2"), "query")).rejects.toMatchObject({ code: "invalid_request" });
    await expect(readParams(new Request("http://localhost/a?redirect_uri=&redirect_uri=https%3A%2F%2Fx.example"), "query")).rejects.toMatchObject({ code: "invalid_request" });
  });

  it("adds parameters to a redirect URI, keeping its own query", async () => {
    const { withQuery } = await import("@/lib/oidc/http");
    expect(withQuery("https://rp.example/cb?tenant=7", { code: "ac_1", state: "a b&c", error: undefined })).toBe(
      "https://rp.example/cb?tenant=7&code=ac_1&state=a+b%26c",
    );
  });

  it("reads only a well-formed bearer token", async () => {
    const { bearerToken } = await import("@/lib/oidc/http");
    const req = (v: string) => new Request("http://localhost/", { headers: { authorization: v } });
    expect(bearerToken(req("Bearer at_abc"))).toBe("at_abc");
    expect(bearerToken(req("bearer  at_abc"))).toBe("at_abc");
    expect(bearerToken(req("Basic abc"))).toBeUndefined();
    expect(bearerToken(req("Bearer a b"))).toBeUndefined();
  });
});

describe("interaction binding", () => {
  it("derives the CSRF token from the cookie and checks it in constant time", async () => {
    const { csrfToken, csrfValid, newBrowserSecret } = await import("@/lib/oidc/interaction-cookie");
    const { hashSecret } = await import("@/lib/crypto/secrets");
    const a = newBrowserSecret();
    const b = newBrowserSecret();
    expect(a.hash).toBe(hashSecret(a.value));
    expect(a.hash).not.toContain(a.value);
    expect(csrfValid(a.value, csrfToken(a.value))).toBe(true);
    expect(csrfValid(a.value, csrfToken(b.value))).toBe(false);
    expect(csrfValid(a.value, undefined)).toBe(false);
  });

  it("sets a path-scoped HttpOnly, SameSite=Lax cookie (Secure for an https issuer), chunked when long, and reads it back", async () => {
    const { setInteractionCookie, readInteractionCookie, clearInteractionCookie } = await import("@/lib/oidc/interaction-cookie");
    const { env } = await import("@/lib/config/env");
    const cookie = setInteractionCookie("8f2c1c2e-0000-4000-8000-000000000000", "v4lue", 1800);
    const secure = env().PUBLIC_BASE_URL.startsWith("https:") ? "; Secure" : "";
    expect(cookie).toEqual([`svc_oidc_interaction=v4lue; Path=/oidc/interaction/8f2c1c2e-0000-4000-8000-000000000000; Max-Age=1800; HttpOnly; SameSite=Lax${secure}`]);
    expect(clearInteractionCookie("x").every((c) => c.includes("Max-Age=0"))).toBe(true);
    expect(readInteractionCookie("a=1; svc_oidc_interaction=v4lue; b=2")).toBe("v4lue");
    expect(readInteractionCookie("a=1")).toBeUndefined();
    const long = "x".repeat(5000) + "y".repeat(3000);
    const chunks = setInteractionCookie("id", long, 60)!;
    expect(chunks.map((c) => c.split("=")[0])).toEqual(["svc_oidc_interaction", "svc_oidc_interaction.1", "svc_oidc_interaction.2"]);
    expect(chunks.every((c) => c.length < 4000)).toBe(true);
    expect(readInteractionCookie(chunks.map((c) => c.split(";")[0]).reverse().join("; "))).toBe(long);
    expect(setInteractionCookie("id", "z".repeat(12_000), 60)).toBeNull();
  });

  it("seals the sign-in request: it opens only unchanged", async () => {
    const { sealInteraction, openInteraction } = await import("@/lib/oidc/interaction-cookie");
    const request = { id: "i", secret: "s", appId: "a", redirectUri: "https://rp.example/cb", scope: "openid", state: "st", nonce: null, codeChallenge: null, loginHint: null, exp: 1 };
    const sealed = sealInteraction(request);
    expect(sealed).not.toContain("rp.example");
    expect(openInteraction(sealed)).toEqual(request);
    const flipped = `${sealed.slice(0, 20)}${sealed[20] === "A" ? "B" : "A"}${sealed.slice(21)}`;
    expect(openInteraction(flipped)).toBeNull();
    expect(openInteraction("garbage")).toBeNull();
  });
});

describe("ID token pieces and pages", () => {
  it("at_hash is the left half of SHA-256, base64url", async () => {
    const { atHash } = await import("@/lib/oidc/id-token");
    const full = createHash("sha256").update("at_token").digest();
    expect(atHash("at_token")).toBe(full.subarray(0, 16).toString("base64url"));
    expect(atHash("at_token")).toHaveLength(22);
  });

  it("message pages escape what they show", async () => {
    const { renderMessagePage } = await import("@/lib/oidc/message-page");
    const html = renderMessagePage({ title: "t", heading: "h", message: `<script>alert("x")</script>`, code: "a&b" });
    expect(html).not.toContain("<script>alert");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(html).toContain("a&amp;b");
    expect(html).toContain('<html lang="en">');
  });

  it("discovery names the configured issuer and every endpoint under it", async () => {
    const { discoveryDocument } = await import("@/lib/oidc/discovery");
    const { env } = await import("@/lib/config/env");
    const d = discoveryDocument();
    expect(d.issuer).toBe(env().PUBLIC_BASE_URL);
    for (const key of ["authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri", "end_session_endpoint"] as const) {
      expect(d[key].startsWith(`${d.issuer}/api/auth/oidc/`)).toBe(true);
    }
  });
});
