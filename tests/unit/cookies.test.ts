import { describe, expect, it } from "vitest";
import { parseCookieHeader } from "@/lib/http/cookies";

/** A request's cookies (lib/http/cookies.ts), as the portal, the OIDC provider and the account page read them. */
describe("parseCookieHeader", () => {
  it("reads every cookie, the first of duplicates winning (browsers send the most specific path first)", () => {
    expect({ ...parseCookieHeader("a=1; b=two; a=3") }).toEqual({ a: "1", b: "two" });
  });

  it("decodes percent-encoding and keeps a value that is not valid encoding as sent", () => {
    expect({ ...parseCookieHeader("next-auth.session-token=ab%2Fcd; broken=%E0%A4%A") }).toEqual({ "next-auth.session-token": "ab/cd", broken: "%E0%A4%A" });
  });

  it("takes a quoted value without its quotes (RFC 6265 cookie-value)", () => {
    expect({ ...parseCookieHeader('next-auth.session-token="eyJ.a%2Fb"; plain=x') }).toEqual({ "next-auth.session-token": "eyJ.a/b", plain: "x" });
  });

  it("no header or a header without a pair is no cookie, and a name is never taken from the prototype", () => {
    expect({ ...parseCookieHeader(undefined) }).toEqual({});
    expect({ ...parseCookieHeader("garbage") }).toEqual({});
    expect(parseCookieHeader("a=1").toString).toBeUndefined();
  });
});
