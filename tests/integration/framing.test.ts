import { beforeAll, describe, expect, it } from "vitest";
import { api, createSession, createWorkflow, shared } from "../support/api";
import { useServerDatabase } from "../support/domain";
import { createPortalApp, signUpDeveloper, type PortalDeveloper } from "../support/portal";

/**
 * Clickjacking (docs/hosted-flow.md "The hosted verification page", "Developer portal"),
 * against the real production server: no page or route of the app may be
 * shown in another site's frame, except the hosted page `/verify/<id>`,
 * which the origins its app registered in the portal may frame. The
 * browser's side of these headers is tests/browser/framing.test.ts.
 */
useServerDatabase();

const NEVER_FRAMED = { xfo: "DENY", csp: "frame-ancestors 'none'" };

let dev: PortalDeveloper;
let other: PortalDeveloper;
let appId: string;
let apiKey: string;
let workflowId: string;

/** What a browser is told about framing this page. */
async function framing(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${shared().url}${path}`, { headers, redirect: "manual" });
  await res.arrayBuffer();
  return { status: res.status, xfo: res.headers.get("x-frame-options"), csp: res.headers.get("content-security-policy") };
}

async function newHostedPage() {
  return (await createSession({ apiKey }, { workflow_id: workflowId })).session_id;
}

async function setFrameOrigins(frameOrigins: unknown, as = dev) {
  return as.call("PATCH", `/api/portal/apps/${appId}`, { json: { frame_origins: frameOrigins } });
}

beforeAll(async () => {
  [dev, other] = await Promise.all([signUpDeveloper(), signUpDeveloper()]);
  ({ appId, apiKey } = await createPortalApp(dev, "Framed shop", "production"));
  workflowId = await createWorkflow({ apiKey }, ["location"]);
});

describe("the portal and every other page are never framed", () => {
  it("sign-in, sign-up and the dashboard (signed out: the redirect; signed in: the pages) send DENY and frame-ancestors 'none'", async () => {
    const signedIn = { cookie: dev.cookie };
    const answers = {
      "/sign-in": await framing("/sign-in"),
      "/sign-up": await framing("/sign-up"),
      "/forgot-password": await framing("/forgot-password"),
      "/dashboard (signed out)": await framing("/dashboard"),
      "/dashboard (signed in: to /dashboard/apps)": await framing("/dashboard", signedIn),
      "/dashboard/apps": await framing("/dashboard/apps", signedIn),
      "/dashboard/apps/{id}": await framing(`/dashboard/apps/${appId}`, signedIn),
      "/dashboard/apps/{id}/keys": await framing(`/dashboard/apps/${appId}/keys`, signedIn),
      "/dashboard/wallet": await framing("/dashboard/wallet", signedIn),
      "/account": await framing("/account"),
      "/": await framing("/"),
      "/docs": await framing("/docs"),
      "a page that does not exist": await framing("/no-such-page"),
    };
    expect(answers["/sign-in"].status).toBe(200);
    expect(answers["/dashboard (signed out)"].status).toBeGreaterThanOrEqual(300);
    expect(answers["/dashboard/apps"].status).toBe(200);
    expect(answers["/dashboard/apps/{id}"].status).toBe(200);
    for (const [page, answer] of Object.entries(answers)) {
      expect({ page, xfo: answer.xfo, csp: answer.csp?.includes("frame-ancestors 'none'") }, page).toEqual({ page, xfo: "DENY", csp: true });
    }
  });

  it("API answers, the HTTP core's own HTML pages and the app's scripts are refused too, and the core's pages keep their stricter policy", async () => {
    expect(await framing("/api/health")).toMatchObject({ status: 200, xfo: "DENY" });
    // The OIDC provider's error page (an HTML page of the core, under /api): its own policy, not one that replaces it.
    const oidcPage = await framing("/api/auth/oidc/authorize?client_id=cli_unknown&response_type=code&scope=openid&redirect_uri=https%3A%2F%2Fshop.example%2Fcb");
    expect(oidcPage.xfo).toBe("DENY");
    expect(oidcPage.csp).toContain("default-src 'none'");
    expect(oidcPage.csp).toContain("frame-ancestors 'none'");
    const docs = await framing("/docs");
    expect(docs.csp).toContain("script-src 'self'");
    const html = await (await fetch(`${shared().url}/sign-in`)).text();
    const script = html.match(/\/_next\/static\/[^"]+\.js/)?.[0];
    expect(script).toBeDefined();
    expect(await framing(script!)).toMatchObject({ status: 200, ...NEVER_FRAMED });
  });

  it("paths beside the hosted page (/verify, /verify/<id>/more) are not the exception", async () => {
    const id = await newHostedPage();
    await setFrameOrigins(["https://shop.example"]);
    expect(await framing("/verify")).toMatchObject(NEVER_FRAMED);
    expect(await framing(`/verify/${id}/more`)).toMatchObject(NEVER_FRAMED);
    await setFrameOrigins([]);
  });
});

describe("the hosted page /verify/<id> is framed only by its app's registered origins", () => {
  it("an app with no origins: DENY and frame-ancestors 'none'", async () => {
    const id = await newHostedPage();
    expect(await framing(`/verify/${id}`)).toEqual({ status: 200, ...NEVER_FRAMED });
  });

  it("an app with two origins: frame-ancestors lists exactly them and no X-Frame-Options; emptied again: 'none'", async () => {
    const id = await newHostedPage();
    const set = await setFrameOrigins(["https://shop.example", " https://Checkout.Shop.example:8443/ "]);
    expect(set.status).toBe(200);
    expect(set.body.data.app.frame_origins).toEqual(["https://shop.example", "https://checkout.shop.example:8443"]);
    expect(await framing(`/verify/${id}`)).toEqual({ status: 200, xfo: null, csp: "frame-ancestors https://shop.example https://checkout.shop.example:8443" });
    // The client-side navigation request of the same page gets the same answer.
    expect(await framing(`/verify/${id}?_rsc=1`, { rsc: "1" })).toMatchObject({ xfo: null, csp: "frame-ancestors https://shop.example https://checkout.shop.example:8443" });
    const read = await dev.call("GET", `/api/portal/apps/${appId}`);
    expect(read.body.data.app.frame_origins).toEqual(["https://shop.example", "https://checkout.shop.example:8443"]);

    expect((await setFrameOrigins([])).status).toBe(200);
    expect(await framing(`/verify/${id}`)).toEqual({ status: 200, ...NEVER_FRAMED });
  });

  it("an unknown, malformed or expired session is never framed, whatever its app lists", async () => {
    await setFrameOrigins(["https://shop.example"]);
    const id = await newHostedPage();
    expect(await framing(`/verify/${id}`)).toMatchObject({ xfo: null, csp: "frame-ancestors https://shop.example" });
    expect(await framing("/verify/00000000-0000-4000-8000-000000000000")).toMatchObject(NEVER_FRAMED);
    expect(await framing("/verify/not-a-session")).toMatchObject(NEVER_FRAMED);
    const { db } = await import("@/lib/db/client");
    await (await db()).session.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await framing(`/verify/${id}`)).toMatchObject(NEVER_FRAMED);
    await setFrameOrigins([]);
  });
});

describe("the portal's frame origins setting (PATCH /api/portal/apps/{id} frame_origins)", () => {
  it("refuses what is not an https origin, naming each entry, and changes nothing", async () => {
    await setFrameOrigins(["https://shop.example"]);
    const bad = await dev.call("PATCH", `/api/portal/apps/${appId}`, {
      json: {
        name: "Renamed",
        frame_origins: [
          "https://ok.example",
          "http://shop.example",
          "https://shop.example/checkout",
          "https://*.shop.example",
          "shop.example",
          "https://shop.example?x=1",
          "http://localhost:3000",
          "https://a;b.example",
          "javascript:alert(1)",
          42,
        ],
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_request");
    const errors = bad.body.data.errors as Record<string, string[]>;
    expect(Object.keys(errors).sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => `frame_origins.${i}`).sort());
    expect(errors["frame_origins.1"]).toEqual(["Must use https for production apps"]);
    expect(errors["frame_origins.2"]![0]).toMatch(/without a path/);
    expect(errors["frame_origins.3"]![0]).toMatch(/Wildcards/);
    expect(errors["frame_origins.6"]).toEqual(["Must use https for production apps"]);

    const tooMany = await setFrameOrigins(Array.from({ length: 11 }, (_, i) => `https://s${i}.example`));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.data.errors).toEqual({ frame_origins: ["At most 10 origins"] });
    const notAList = await setFrameOrigins("https://shop.example");
    expect(notAList.status).toBe(400);
    expect(Object.keys(notAList.body.data.errors)).toEqual(["frame_origins"]);

    const read = await dev.call("GET", `/api/portal/apps/${appId}`);
    expect(read.body.data.app).toMatchObject({ name: "Framed shop", frame_origins: ["https://shop.example"] });
    await setFrameOrigins([]);
  });

  it("a test app may also list http on localhost (development), as for redirect URIs", async () => {
    const created = await dev.call("POST", "/api/portal/apps", { json: { name: "Local shop", environment: "test" } });
    const testApp = created.body.data.app_id;
    const ok = await dev.call("PATCH", `/api/portal/apps/${testApp}`, { json: { frame_origins: ["http://localhost:3000", "http://127.0.0.1:5173"] } });
    expect(ok.status).toBe(200);
    expect(ok.body.data.app.frame_origins).toEqual(["http://localhost:3000", "http://127.0.0.1:5173"]);
    const lan = await dev.call("PATCH", `/api/portal/apps/${testApp}`, { json: { frame_origins: ["http://192.168.1.10:3000"] } });
    expect(lan.status).toBe(400);
    expect(lan.body.data.errors["frame_origins.0"]).toEqual(["Must use https (http only for localhost in test apps)"]);
  });

  it("another organization's developer gets 404 and cannot change the list", async () => {
    const res = await setFrameOrigins(["https://evil.example"], other);
    expect(res.status).toBe(404);
    const read = await dev.call("GET", `/api/portal/apps/${appId}`);
    expect(read.body.data.app.frame_origins).toEqual([]);
  });
});
