import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, shared } from "../support/api";
import { useServerDatabase } from "../support/domain";
import { cli } from "../support/cli";
import { sql } from "../support/database";
import {
  confirmEmail,
  portalCaller,
  postSignUp,
  signInOverHttp,
  signUpDeveloper,
  uniqueEmail,
  verificationTokenFor,
  type PortalDeveloper,
} from "../support/portal";
import { logoForm, pngImage } from "../support/portal-resources";
import { startServer, type RunningServer } from "../support/server";
import { startSmtp, type TestSmtp } from "../support/smtp";

/**
 * The developer portal's JSON routes (app/api/portal/*) over HTTP against the
 * real production server: next-auth sign-in, the `developer` auth kind and
 * its cross-site check, the one app guard (404 for another organization's
 * app on every route), and what each route does. Servers of their own for
 * the sign-in limits and password reset (SMTP).
 */
useServerDatabase();

let a: PortalDeveloper;
let b: PortalDeveloper;
let appA: string;
let keyA: { id: string; api_key: string };

beforeAll(async () => {
  [a, b] = await Promise.all([signUpDeveloper(), signUpDeveloper()]);
  const created = await a.call("POST", "/api/portal/apps", { json: { name: "Shop", environment: "production" } });
  expect(created.status).toBe(201);
  appA = created.body.data.app_id;
  const key = await a.call("POST", `/api/portal/apps/${appA}/keys`, { json: { name: "backend" } });
  expect(key.status).toBe(201);
  keyA = key.body.data;
});

describe("portal sign-up and session", () => {
  it("gives a new organization the 100 USD welcome credit, once, as its first ledger row", async () => {
    const wallet = await a.call("GET", "/api/portal/wallet");
    expect(wallet.status).toBe(200);
    expect(wallet.body.data.balance).toBe(100);
    expect(wallet.body.data.entries).toEqual([expect.objectContaining({ amount: 100, balance_after: 100, cause: { kind: "welcome_credit" } })]);
  });

  it("refuses bad sign-up input with a per-field map and a taken email with 409", async () => {
    const bad = await postSignUp({ email: "not-an-email", password: "short" });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.data.errors).sort()).toEqual(["email", "password"]);
    const taken = await postSignUp({ email: a.email, password: "another-long-password" });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe("already_exists");
  });

  it("answers 401 sign_in_required without a session, or with a forged cookie", async () => {
    const none = await api("GET", "/api/portal/apps");
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe("sign_in_required");
    const forged = await api("GET", "/api/portal/apps", { headers: { cookie: "next-auth.session-token=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..x.y.z" } });
    expect(forged.status).toBe(401);
  });

  it("refuses a state-changing request from another site (no or foreign Origin) and accepts the portal's own", async () => {
    const noOrigin = await api("POST", "/api/portal/apps", { headers: { cookie: a.cookie }, json: { name: "X", environment: "test" } });
    expect(noOrigin.status).toBe(403);
    expect(noOrigin.body.error.code).toBe("cross_site_request");
    const foreign = await api("POST", "/api/portal/apps", { headers: { cookie: a.cookie, origin: "https://evil.example" }, json: { name: "X", environment: "test" } });
    expect(foreign.status).toBe(403);
    const sameOrigin = await api("POST", "/api/portal/apps", { headers: { cookie: a.cookie, "sec-fetch-site": "same-origin" }, json: { name: "Test shop", environment: "test" } });
    expect(sameOrigin.status).toBe(201);
  });

  it("answers an unknown next-auth path with 404 endpoint_not_found in the envelope", async () => {
    const res = await api("GET", "/api/portal/auth/nonsense");
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("endpoint_not_found");
  });

  it("signs out: next-auth clears the session cookie", async () => {
    const session = await signInOverHttp(a.email, a.password);
    const csrf = await fetch(`${shared().url}/api/portal/auth/csrf`, { headers: { cookie: session.cookie } });
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const out = await fetch(`${shared().url}/api/portal/auth/signout`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: session.cookie },
      body: new URLSearchParams({ csrfToken, callbackUrl: "/sign-in" }),
    });
    expect(out.status).toBe(303);
    expect(out.headers.getSetCookie().some((c) => c.startsWith("next-auth.session-token=;"))).toBe(true);
  });
});

describe("apps", () => {
  it("lists apps per environment", async () => {
    const live = await a.call("GET", "/api/portal/apps?environment=production");
    expect(live.body.data.apps.map((x: { name: string }) => x.name)).toEqual(["Shop"]);
    const test = await a.call("GET", "/api/portal/apps?environment=test");
    expect(test.body.data.apps.every((x: { environment: string }) => x.environment === "test")).toBe(true);
    const bad = await a.call("GET", "/api/portal/apps?environment=staging");
    expect(bad.status).toBe(400);
  });

  it("renames within 1..120 characters, else 400 invalid_client_metadata", async () => {
    for (const name of ["", " ", "x".repeat(121)]) {
      const res = await a.call("PATCH", `/api/portal/apps/${appA}`, { json: { name } });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("invalid_client_metadata");
      expect(res.body.data.errors.name).toHaveLength(1);
    }
    const ok = await a.call("PATCH", `/api/portal/apps/${appA}`, { json: { name: "x".repeat(120) } });
    expect(ok.status).toBe(200);
    const back = await a.call("PATCH", `/api/portal/apps/${appA}`, { json: { name: "Shop" } });
    expect(back.body.data.app.name).toBe("Shop");
  });

  it("uploads a logo with the hosted flow's image checks, and removes it", async () => {
    const ok = await a.call("PUT", `/api/portal/apps/${appA}/logo`, { form: logoForm(await pngImage(64)) });
    expect(ok.status).toBe(200);
    const app = await a.call("GET", `/api/portal/apps/${appA}`);
    expect(app.body.data.app.logo).toMatch(/^data:image\/png;base64,/);
    const notImage = await a.call("PUT", `/api/portal/apps/${appA}/logo`, { form: logoForm(Buffer.from("hello, not an image"), "text/plain") });
    expect(notImage.status).toBe(422);
    expect(notImage.body.error.code).toBe("logo_invalid");
    const big = await sharp({ create: { width: 1200, height: 1200, channels: 3, background: "#888" } }).png({ compressionLevel: 0 }).toBuffer();
    const tooLarge = await a.call("PUT", `/api/portal/apps/${appA}/logo`, { form: logoForm(big) });
    expect(tooLarge.status).toBe(422);
    expect(tooLarge.body.error.code).toBe("logo_too_large");
    const missing = await a.call("PUT", `/api/portal/apps/${appA}/logo`, { form: new FormData() });
    expect(missing.status).toBe(400);
    const removed = await a.call("DELETE", `/api/portal/apps/${appA}/logo`);
    expect(removed.status).toBe(200);
    expect((await a.call("GET", `/api/portal/apps/${appA}`)).body.data.app.logo).toBeNull();
  });

  it("deactivating an app stops its API keys; activating restores them", async () => {
    const key = { "X-API-Key": keyA.api_key };
    expect((await api("GET", "/api/v2/workflows", { headers: key })).status).toBe(200);
    expect((await a.call("PATCH", `/api/portal/apps/${appA}`, { json: { is_active: false } })).body.data.app.is_active).toBe(false);
    expect((await api("GET", "/api/v2/workflows", { headers: key })).status).toBe(401);
    await a.call("PATCH", `/api/portal/apps/${appA}`, { json: { is_active: true } });
    expect((await api("GET", "/api/v2/workflows", { headers: key })).status).toBe(200);
  });
});

describe("API keys", () => {
  it("creates a key shown once, lists prefixes with last use, and revokes it", async () => {
    const created = await a.call("POST", `/api/portal/apps/${appA}/keys`, { json: { name: "ci" } });
    expect(created.status).toBe(201);
    const secret: string = created.body.data.api_key;
    expect(secret).toMatch(/^sk_live_/);
    const used = await api("POST", "/api/v2/workflows", { headers: { "X-API-Key": secret }, json: { name: "KYC", features: ["liveness"] } });
    expect(used.status).toBe(201);

    const list = await a.call("GET", `/api/portal/apps/${appA}/keys`);
    expect(list.text).not.toContain(secret);
    const row = list.body.data.keys.find((k: { id: string }) => k.id === created.body.data.id);
    expect(row).toMatchObject({ name: "ci", prefix: secret.slice(0, 12), revoked_at: null });
    expect(row.last_used_at).not.toBeNull();
    expect(list.body.data.credential_cache_ms).toBe(0);

    const revoked = await a.call("DELETE", `/api/portal/apps/${appA}/keys/${created.body.data.id}`);
    expect(revoked.status).toBe(200);
    expect((await api("GET", "/api/v2/workflows", { headers: { "X-API-Key": secret } })).status).toBe(401);
    const after = await a.call("GET", `/api/portal/apps/${appA}/keys`);
    expect(after.body.data.keys.find((k: { id: string }) => k.id === created.body.data.id).revoked_at).not.toBeNull();
  });

  it("refuses a key name out of bounds", async () => {
    const res = await a.call("POST", `/api/portal/apps/${appA}/keys`, { json: { name: "" } });
    expect(res.status).toBe(400);
    expect(res.body.data.errors.name).toBeDefined();
  });
});

describe("OIDC client", () => {
  it("round-trips redirect URIs (the CLI's validation), scopes and the discovery URL", async () => {
    const start = await a.call("GET", `/api/portal/apps/${appA}/oidc`);
    expect(start.body.data).toMatchObject({ app_id: appA, redirect_uris: [], scopes: ["openid"], active: true, discovery_url: `${shared().url}/.well-known/openid-configuration` });
    for (const uri of ["http://shop.example/cb", "https://shop.example/cb#frag", "https://*.shop.example/cb", "not a url"]) {
      const bad = await a.call("POST", `/api/portal/apps/${appA}/oidc/redirect-uris`, { json: { uri } });
      expect(bad.status, uri).toBe(400);
      expect(bad.body.data.errors.uri, uri).toBeDefined();
    }
    const added = await a.call("POST", `/api/portal/apps/${appA}/oidc/redirect-uris`, { json: { uri: "https://shop.example/cb" } });
    expect(added.body.data.redirect_uris).toEqual(["https://shop.example/cb"]);
    await a.call("POST", `/api/portal/apps/${appA}/oidc/redirect-uris`, { json: { uri: "http://localhost:8080/cb" } });
    const removed = await a.call("DELETE", `/api/portal/apps/${appA}/oidc/redirect-uris`, { json: { uri: "https://shop.example/cb" } });
    expect(removed.body.data.redirect_uris).toEqual(["http://localhost:8080/cb"]);

    const noOpenid = await a.call("PATCH", `/api/portal/apps/${appA}/oidc`, { json: { scopes: ["profile"] } });
    expect(noOpenid.status).toBe(400);
    const unknown = await a.call("PATCH", `/api/portal/apps/${appA}/oidc`, { json: { scopes: ["openid", "email"] } });
    expect(unknown.status).toBe(400);
    const scopes = await a.call("PATCH", `/api/portal/apps/${appA}/oidc`, { json: { scopes: ["openid", "profile", "zkp"] } });
    expect(scopes.body.data.scopes).toEqual(["openid", "profile", "zkp"]);
  });

  it("rotates the client secret (the old one stopping now): the new one works, the old one is refused", async () => {
    const { client_id } = (await a.call("GET", `/api/portal/apps/${appA}/oidc`)).body.data;
    const first = (await a.call("POST", `/api/portal/apps/${appA}/oidc/secret`)).body.data.client_secret as string;
    const second = await a.call("POST", `/api/portal/apps/${appA}/oidc/secret`, { json: { expire_previous_in: 0 } });
    expect(second.body.data.client_id).toBe(client_id);
    const members = (secret: string) => api("GET", "/api/sdk/members", { headers: { "X-Client-Id": client_id, "X-Client-Secret": secret } });
    expect((await members(second.body.data.client_secret)).status).toBe(200);
    expect((await members(first)).status).toBe(401);
  });

  it("the active toggle deactivates the app", async () => {
    const off = await a.call("PATCH", `/api/portal/apps/${appA}/oidc`, { json: { active: false } });
    expect(off.body.data.active).toBe(false);
    expect((await a.call("GET", `/api/portal/apps/${appA}`)).body.data.app.is_active).toBe(false);
    const on = await a.call("PATCH", `/api/portal/apps/${appA}/oidc`, { json: { active: true } });
    expect(on.body.data.active).toBe(true);
  });
});

describe("wallet ledger", () => {
  it("pages the ledger with a cursor, newest first, without overlap", async () => {
    const { creditWallet } = await import("@/lib/billing/wallet");
    for (let i = 1; i <= 30; i++) await creditWallet(b.organizationId, i, `test credit ${i}`);
    const first = await b.call("GET", "/api/portal/wallet");
    expect(first.body.data.entries).toHaveLength(25);
    expect(first.body.data.entries[0]).toMatchObject({ amount: 0.3, cause: { kind: "manual_credit", description: "test credit 30" } });
    const second = await b.call("GET", `/api/portal/wallet?cursor=${first.body.data.next_cursor}`);
    expect(second.body.data.entries).toHaveLength(6);
    expect(second.body.data.next_cursor).toBeNull();
    expect(second.body.data.entries.at(-1).cause).toEqual({ kind: "welcome_credit" });
    const ids = [...first.body.data.entries, ...second.body.data.entries].map((e: { id: string }) => e.id);
    expect(new Set(ids).size).toBe(31);
    const bad = await b.call("GET", "/api/portal/wallet?cursor=nonsense");
    expect(bad.status).toBe(400);
  });
});

describe("cross-organization access", () => {
  it("answers 404 on every portal route for another organization's app, and changes nothing", async () => {
    const attempts: Array<[string, string, { json?: unknown; form?: FormData }?]> = [
      ["GET", `/api/portal/apps/${appA}`],
      ["PATCH", `/api/portal/apps/${appA}`, { json: { name: "Mine now" } }],
      ["PATCH", `/api/portal/apps/${appA}`, { json: { is_active: false } }],
      ["PUT", `/api/portal/apps/${appA}/logo`, { form: logoForm(await pngImage(32)) }],
      ["DELETE", `/api/portal/apps/${appA}/logo`],
      ["GET", `/api/portal/apps/${appA}/keys`],
      ["POST", `/api/portal/apps/${appA}/keys`, { json: { name: "stolen" } }],
      ["DELETE", `/api/portal/apps/${appA}/keys/${keyA.id}`],
      ["GET", `/api/portal/apps/${appA}/oidc`],
      ["PATCH", `/api/portal/apps/${appA}/oidc`, { json: { scopes: ["openid"] } }],
      ["POST", `/api/portal/apps/${appA}/oidc/redirect-uris`, { json: { uri: "https://evil.example/cb" } }],
      ["DELETE", `/api/portal/apps/${appA}/oidc/redirect-uris`, { json: { uri: "http://localhost:8080/cb" } }],
      ["POST", `/api/portal/apps/${appA}/oidc/secret`],
    ];
    for (const [method, path, options] of attempts) {
      const res = await b.call(method, path, options);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code, `${method} ${path}`).toBe("not_found");
    }
    // A's key, revoked through B's own app: still 404, still working.
    const own = await b.call("POST", "/api/portal/apps", { json: { name: "B app", environment: "test" } });
    const viaOwn = await b.call("DELETE", `/api/portal/apps/${own.body.data.app_id}/keys/${keyA.id}`);
    expect(viaOwn.status).toBe(404);
    expect((await api("GET", "/api/v2/workflows", { headers: { "X-API-Key": keyA.api_key } })).status).toBe(200);
    const oidc = await a.call("GET", `/api/portal/apps/${appA}/oidc`);
    expect(oidc.body.data.redirect_uris).toEqual(["http://localhost:8080/cb"]);
    expect((await a.call("GET", `/api/portal/apps/${appA}`)).body.data.app.name).toBe("Shop");
    // B's own list never shows A's app.
    const listed = await b.call("GET", "/api/portal/apps?environment=production");
    expect(listed.body.data.apps).toEqual([]);
  });
});

describe("email verification and the welcome credit (issue 31.4; a server of its own with SMTP)", () => {
  const PASSWORD = "correct-horse-battery";
  let server: RunningServer;
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtp();
    // Production defaults, except PORTAL_SIGN_UPS_PER_IP_PER_HOUR: this describe signs up 6 developers from one IP
    // (abuse-limits.test.ts tests the default).
    server = await startServer({ ...shared().env, SMTP_HOST: smtp.host, SMTP_PORT: String(smtp.port), PORTAL_SIGN_UPS_PER_IP_PER_HOUR: "10" });
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.stop();
  });
  const developersWith = async (email: string) => (await sql(shared().env, "SELECT count(*)::int AS n FROM developers WHERE email = $1", [email]))[0].n as number;
  const welcomeRows = async (organizationId: string) =>
    (await sql(shared().env, "SELECT count(*)::int AS n FROM ledger_entries l JOIN wallets w ON w.id = l.wallet_id WHERE w.organization_id = $1 AND l.kind = 'welcome_credit'", [organizationId]))[0].n as number;
  const BANNER = "Verify your email to receive your 100 USD welcome credit. We sent you a link";
  const dashboard = async (cookie: string, base = server.url) => (await fetch(`${base}/dashboard/apps`, { headers: { cookie } })).text();

  it("sign-up opens an account with an empty wallet; the mailed link verifies it and grants 100 USD exactly once", async () => {
    const email = uniqueEmail("verify");
    const created = await postSignUp({ email, password: PASSWORD }, server.url);
    expect(created.status, created.text).toBe(201);
    expect(created.body.data).toMatchObject({ email, email_verified: false, email_verification: "sent" });
    const session = await signInOverHttp(email, PASSWORD, server.url);
    expect(session.signedIn).toBe(true); // an unverified account signs in and explores
    const call = portalCaller(session.cookie, server.url);
    expect((await call("GET", "/api/portal/wallet")).body.data).toMatchObject({ balance: 0, entries: [] });
    expect(await dashboard(session.cookie)).toContain(BANNER);

    const token = await verificationTokenFor(smtp, email);
    expect(token).toMatch(/^emv_/);
    // The link's page posts the token from the portal's own origin; another site cannot.
    const forged = await api("POST", "/api/portal/email-verification/confirm", { base: server.url, json: { token }, headers: { origin: "https://evil.example" } });
    expect(forged.status).toBe(403);
    expect(forged.body.error.code).toBe("cross_site_request");
    expect((await call("GET", "/api/portal/wallet")).body.data.balance).toBe(0);

    const confirmed = await confirmEmail(token, server.url);
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body.data).toEqual({ email_verified: true, welcome_credit: 100 });
    const wallet = (await call("GET", "/api/portal/wallet")).body.data;
    expect(wallet.balance).toBe(100);
    expect(wallet.entries).toEqual([expect.objectContaining({ amount: 100, balance_after: 100, cause: { kind: "welcome_credit" } })]);
    expect(await dashboard(session.cookie)).not.toContain(BANNER);

    const again = await confirmEmail(token, server.url);
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe("email_verification_invalid");
    expect((await call("GET", "/api/portal/wallet")).body.data.balance).toBe(100);
    expect(await welcomeRows(created.body.data.organization_id)).toBe(1);
    const resend = await call("POST", "/api/portal/email-verification");
    expect(resend.status).toBe(409);
    expect(resend.body.error.code).toBe("email_already_verified");
  });

  it("grants one welcome credit per mailbox: x+1@gmail.com gets 100 USD, x.+2@googlemail.com is verified but gets none; another mailbox gets its own", async () => {
    const local = `w${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const verifiedWith = async (email: string) => {
      const created = await postSignUp({ email, password: PASSWORD }, server.url);
      expect(created.status, created.text).toBe(201);
      expect(created.body.data.email).toBe(email); // kept as typed: sign-in uses it
      const confirmed = await confirmEmail(await verificationTokenFor(smtp, email), server.url);
      expect(confirmed.status, confirmed.text).toBe(200);
      const { cookie } = await signInOverHttp(email, PASSWORD, server.url);
      const wallet = (await portalCaller(cookie, server.url)("GET", "/api/portal/wallet")).body.data;
      return { answer: confirmed.body.data, balance: wallet.balance, organizationId: created.body.data.organization_id as string };
    };
    const first = await verifiedWith(`${local}+1@gmail.com`);
    expect(first.answer).toEqual({ email_verified: true, welcome_credit: 100 });
    expect(first.balance).toBe(100);

    const sameMailbox = await verifiedWith(`${local.slice(0, 2)}.${local.slice(2)}.+2@googlemail.com`);
    expect(sameMailbox.answer).toEqual({ email_verified: true, welcome_credit: 0, welcome_credit_withheld: "mailbox_already_credited" });
    expect(sameMailbox.balance).toBe(0);
    expect(await welcomeRows(sameMailbox.organizationId)).toBe(0);

    const otherMailbox = await verifiedWith(`${local}x+1@gmail.com`);
    expect(otherMailbox.answer).toEqual({ email_verified: true, welcome_credit: 100 });
    expect(otherMailbox.balance).toBe(100);
    // Only a keyed hash of the mailbox is stored, never the address.
    const grants = await sql(shared().env, "SELECT mailbox_hash FROM welcome_credit_grants WHERE organization_id IN ($1, $2)", [first.organizationId, otherMailbox.organizationId]);
    expect(grants).toHaveLength(2);
    for (const { mailbox_hash } of grants) expect(mailbox_hash).toMatch(/^[0-9a-f]{64}$/);
    // The sign-up page says so before anyone signs up.
    expect(await (await fetch(`${server.url}/sign-up`)).text()).toContain("one welcome credit per mailbox");
  });

  it("refuses a sign-up from another site (foreign or no Origin) and a text/plain body, creating nothing", async () => {
    const email = uniqueEmail("csrf");
    const body = JSON.stringify({ email, password: PASSWORD });
    // The probe's request: a form-like text/plain post from another site's page (no CORS preflight).
    const foreign = await api("POST", "/api/portal/sign-up", { base: server.url, raw: body, headers: { "content-type": "text/plain", origin: "https://evil.example" } });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe("cross_site_request");
    const noOrigin = await api("POST", "/api/portal/sign-up", { base: server.url, json: { email, password: PASSWORD } });
    expect(noOrigin.status).toBe(403);
    expect(noOrigin.body.error.code).toBe("cross_site_request");
    const plain = await api("POST", "/api/portal/sign-up", { base: server.url, raw: body, headers: { "content-type": "text/plain;charset=UTF-8", origin: server.url } });
    expect(plain.status).toBe(415);
    expect(plain.body.error.code).toBe("unsupported_media_type");
    expect(await developersWith(email)).toBe(0);
    // The browser's own marking of a same-origin request passes too.
    const sameOrigin = await api("POST", "/api/portal/sign-up", { base: server.url, json: { email, password: PASSWORD }, headers: { "sec-fetch-site": "same-origin" } });
    expect(sameOrigin.status, sameOrigin.text).toBe(201);
    expect(await developersWith(email)).toBe(1);
  });

  it("refuses password-reset forms from another site or as text/plain, like sign-up", async () => {
    for (const path of ["/api/portal/password-reset", "/api/portal/password-reset/confirm"]) {
      const json = path.endsWith("confirm") ? { token: "x".repeat(43), password: "new-password-456" } : { email: uniqueEmail("reset-csrf") };
      const foreign = await api("POST", path, { base: server.url, raw: JSON.stringify(json), headers: { "content-type": "text/plain", origin: "https://evil.example" } });
      expect(foreign.status, path).toBe(403);
      expect(foreign.body.error.code).toBe("cross_site_request");
      const plain = await api("POST", path, { base: server.url, raw: JSON.stringify(json), headers: { "content-type": "text/plain", origin: server.url } });
      expect(plain.status, path).toBe(415);
      // From the portal's own page the form is taken (the confirm then judges its token).
      const own = await api("POST", path, { base: server.url, json, headers: { origin: server.url } });
      expect(own.status, path).toBe(path.endsWith("confirm") ? 400 : 202);
      if (path.endsWith("confirm")) expect(own.body.error.code).toBe("password_reset_invalid");
    }
  });

  it("sends the link again to a signed-in unverified developer, 3 times an hour; the newest link verifies and closes the older ones", async () => {
    const dev = await signUpDeveloper(server.url, undefined, null);
    const first = await verificationTokenFor(smtp, dev.email);
    for (let i = 0; i < 3; i++) {
      const res = await dev.call("POST", "/api/portal/email-verification");
      expect(res.status, res.text).toBe(202);
      expect(res.body.data).toEqual({ email_verification: "sent" });
    }
    const limited = await dev.call("POST", "/api/portal/email-verification");
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("rate_limited");
    const tokens = [await verificationTokenFor(smtp, dev.email), await verificationTokenFor(smtp, dev.email), await verificationTokenFor(smtp, dev.email)];
    expect(new Set([first, ...tokens]).size).toBe(4);
    expect((await confirmEmail(tokens[2]!, server.url)).body.data).toEqual({ email_verified: true, welcome_credit: 100 });
    expect((await confirmEmail(first, server.url)).body.error.code).toBe("email_verification_invalid");
    expect((await dev.call("GET", "/api/portal/wallet")).body.data.balance).toBe(100);
  });

  it("without outgoing mail (the shared server): the account is made unverified (email_verification: unavailable), and the operator verifies it with the CLI, once", async () => {
    const email = uniqueEmail("nomail");
    const created = await postSignUp({ email, password: PASSWORD });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data).toMatchObject({ email_verified: false, email_verification: "unavailable" });
    const { cookie } = await signInOverHttp(email, PASSWORD);
    const call = portalCaller(cookie);
    expect((await call("GET", "/api/portal/wallet")).body.data.balance).toBe(0);
    expect(await dashboard(cookie, shared().url)).toContain("This server cannot send mail: ask its administrator to verify your email.");
    const resend = await call("POST", "/api/portal/email-verification");
    expect(resend.status).toBe(503);
    expect(resend.body.error.code).toBe("mail_not_configured");

    expect(await cli(["developer:verify-email", "--email", email], shared().env)).toEqual({
      developer_id: created.body.data.developer_id,
      email,
      email_verified: true,
      welcome_credit_granted: true,
    });
    expect((await call("GET", "/api/portal/wallet")).body.data.balance).toBe(100);
    expect((await cli(["developer:verify-email", "--email", email], shared().env)).welcome_credit_granted).toBe(false);
    expect((await call("GET", "/api/portal/wallet")).body.data.balance).toBe(100);
    expect(await welcomeRows(created.body.data.organization_id)).toBe(1);
  });
});

describe("sign-in limits and password reset (servers of their own)", () => {
  let server: RunningServer;
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startServer({
      ...shared().env,
      SMTP_HOST: smtp.host,
      SMTP_PORT: String(smtp.port),
      PORTAL_SIGN_IN_ATTEMPTS_PER_ACCOUNT: "3",
      PORTAL_SIGN_IN_ATTEMPTS_PER_IP: "10",
    });
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.stop();
  });

  it("resets a password by an emailed single-use link; the same answer for unknown emails", async () => {
    const email = `reset-${Date.now()}@example.com`;
    expect((await postSignUp({ email, password: "old-password-123" }, server.url)).status).toBe(201);
    await verificationTokenFor(smtp, email); // the sign-up's mail; the reset's comes next
    const before = await signInOverHttp(email, "old-password-123", server.url);
    const wallet = portalCaller(before.cookie, server.url);
    expect((await wallet("GET", "/api/portal/wallet")).status).toBe(200);
    const asked = await api("POST", "/api/portal/password-reset", { base: server.url, json: { email }, headers: { origin: server.url } });
    const unknown = await api("POST", "/api/portal/password-reset", { base: server.url, json: { email: `ghost-${Date.now()}@example.com` }, headers: { origin: server.url } });
    expect(asked.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(unknown.body).toEqual(asked.body);

    const mail = await smtp.next(email);
    const raw = mail.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
    const token = decodeURIComponent(raw.match(/\/reset-password#token=([A-Za-z0-9_%-]+)/)![1]!);
    expect(token).toMatch(/^pwr_/);

    const weak = await api("POST", "/api/portal/password-reset/confirm", { base: server.url, json: { token, password: "short" } , headers: { origin: server.url } });
    expect(weak.status).toBe(400);
    expect(weak.body.data.errors.password).toBeDefined();
    const done = await api("POST", "/api/portal/password-reset/confirm", { base: server.url, json: { token, password: "new-password-456" } , headers: { origin: server.url } });
    expect(done.status).toBe(200);
    const again = await api("POST", "/api/portal/password-reset/confirm", { base: server.url, json: { token, password: "third-password-789" } , headers: { origin: server.url } });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe("password_reset_invalid");

    // The session signed in before the reset has ended; the new password signs in, the old one does not.
    expect((await wallet("GET", "/api/portal/wallet")).status).toBe(401);
    const after = await signInOverHttp(email, "new-password-456", server.url);
    expect(after.signedIn).toBe(true);
    expect((await portalCaller(after.cookie, server.url)("GET", "/api/portal/wallet")).status).toBe(200);
    const { db } = await import("@/lib/db/client");
    const { verifyPassword } = await import("@/lib/crypto/secrets");
    const developer = await (await db()).developer.findUniqueOrThrow({ where: { email } });
    expect(await verifyPassword("old-password-123", developer.passwordHash)).toBe(false);
  });

  it("refuses an expired reset link", async () => {
    const email = `expired-${Date.now()}@example.com`;
    await postSignUp({ email, password: "old-password-123" }, server.url);
    await verificationTokenFor(smtp, email);
    await api("POST", "/api/portal/password-reset", { base: server.url, json: { email }, headers: { origin: server.url } });
    const raw = (await smtp.next(email)).raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
    const token = decodeURIComponent(raw.match(/\/reset-password#token=([A-Za-z0-9_%-]+)/)![1]!);
    const { db } = await import("@/lib/db/client");
    const { hashSecret } = await import("@/lib/crypto/secrets");
    await (await db()).developerPasswordReset.update({ where: { tokenHash: hashSecret(token) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const res = await api("POST", "/api/portal/password-reset/confirm", { base: server.url, json: { token, password: "new-password-456" } , headers: { origin: server.url } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("password_reset_invalid");
  });

  it("limits failed attempts per account (from this IP), with the same answers for unknown accounts, then per IP; successes do not count", async () => {
    const dev = await signUpDeveloper(server.url); // a successful sign-in: not counted
    for (let i = 0; i < 3; i++) expect((await signInOverHttp(dev.email, "wrong-password-1", server.url)).error).toBe("CredentialsSignin");
    const blocked = await signInOverHttp(dev.email, dev.password, server.url);
    expect(blocked).toMatchObject({ status: 401, error: "rate_limited", signedIn: false });

    const ghost = `nobody-${Date.now()}@example.com`;
    for (let i = 0; i < 3; i++) expect((await signInOverHttp(ghost, "wrong-password-1", server.url)).error).toBe("CredentialsSignin");
    expect((await signInOverHttp(ghost, "wrong-password-1", server.url)).error).toBe("rate_limited");

    // 3 + 3 failures above (refused attempts are not counted), 4 more on other accounts: the address's budget of 10 is spent.
    for (let i = 0; i < 4; i++) expect((await signInOverHttp(`nobody-${i}-${Date.now()}@example.com`, "wrong-password-1", server.url)).error).toBe("CredentialsSignin");
    const other = await postSignUp({ email: `fresh-${Date.now()}@example.com`, password: "correct-horse-battery" }, server.url);
    expect(other.status).toBe(201);
    expect((await signInOverHttp(other.body.data.email, "correct-horse-battery", server.url)).error).toBe("rate_limited");
  });
});

describe("the demo account", () => {
  it("signs in to the portal with the printed credentials", async () => {
    const { ensureDemo, DEMO_EMAIL, DEMO_PASSWORD } = await import("@/lib/tenancy/demo");
    await ensureDemo();
    const session = await signInOverHttp(DEMO_EMAIL, DEMO_PASSWORD);
    expect(session.signedIn).toBe(true);
    const apps = await portalCaller(session.cookie)("GET", "/api/portal/apps?environment=test");
    expect(apps.body.data.apps.map((x: { name: string }) => x.name)).toContain("Demo app");
  });
});

describe("portal caller helper", () => {
  it("is only valid with a session", async () => {
    const anonymous = portalCaller("");
    expect((await anonymous("GET", "/api/portal/wallet")).status).toBe(401);
  });
});
