import { describe, expect, it } from "vitest";
import { frameAncestorsHeaders } from "@/lib/http/frame-ancestors";
import { frameOriginsSchema } from "@/lib/tenancy/frame-origins";

/** The origins an app may let frame its hosted page, and the headers they become (docs/hosted-flow.md "Embedding the hosted page"). */
describe("frameOriginsSchema", () => {
  const production = frameOriginsSchema("production");
  const test = frameOriginsSchema("test");

  it("keeps https origins as their normalised origin, without repeats", () => {
    expect(production.parse(["https://Shop.Example/", "https://shop.example:443", "https://a.shop.example:8443", "https://192.0.2.7"])).toEqual([
      "https://shop.example",
      "https://a.shop.example:8443",
      "https://192.0.2.7",
    ]);
  });

  it("allows http only on localhost, and only for test apps", () => {
    expect(test.parse(["http://localhost:3000", "http://127.0.0.1"])).toEqual(["http://localhost:3000", "http://127.0.0.1"]);
    expect(test.safeParse(["http://shop.example"]).success).toBe(false);
    expect(production.safeParse(["http://localhost:3000"]).success).toBe(false);
  });

  it.each([
    "https://shop.example/path",
    "https://shop.example?q=1",
    "https://shop.example#x",
    "https://user@shop.example",
    "https://*.shop.example",
    "*",
    "shop.example",
    "'self'",
    "https://a;b.example",
    "https://a b.example",
    "https://a'b.example",
    "data:text/html,hi",
    "ftp://shop.example",
    "",
  ])("refuses %j", (value) => {
    expect(production.safeParse([value]).success).toBe(false);
  });

  it("refuses an IPv6 address, which a Content-Security-Policy cannot name, saying so", () => {
    for (const value of ["https://[2001:db8::1]", "http://[::1]:8080"]) {
      const result = test.safeParse([value]);
      expect(result.success, value).toBe(false);
      expect(result.error?.issues[0]?.message).toMatch(/IPv6/);
    }
  });

  it("refuses more than 10 and anything but a list of strings", () => {
    expect(production.safeParse(Array.from({ length: 11 }, (_, i) => `https://s${i}.example`)).success).toBe(false);
    expect(production.safeParse("https://shop.example").success).toBe(false);
    expect(production.safeParse([1]).success).toBe(false);
  });
});

describe("frameAncestorsHeaders", () => {
  it("lists the origins, with no X-Frame-Options (it cannot name a list)", () => {
    expect(frameAncestorsHeaders(["https://a.example", "https://b.example"])).toEqual({ "Content-Security-Policy": "frame-ancestors https://a.example https://b.example" });
  });

  it("refuses every frame when there is none", () => {
    expect(frameAncestorsHeaders([])).toEqual({ "Content-Security-Policy": "frame-ancestors 'none'", "X-Frame-Options": "DENY" });
  });
});
