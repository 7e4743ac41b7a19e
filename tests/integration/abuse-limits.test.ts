import { randomBytes, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { api, createTenant, shared, type Tenant } from "../support/api";
import { cli } from "../support/cli";
import { sql } from "../support/database";
import { useServerDatabase } from "../support/domain";
import { postSignUp, signInOverHttp } from "../support/portal";
import {
  csrfOf,
  expectEnvelope,
  expectTokenError,
  get,
  newEmail,
  post,
  provider,
  randomIp,
  startLogin,
  text,
  tokenRequest,
  type TokenAnswer,
  useOidcProvider,
} from "../support/oidc-flow";

/**
 * docs/api-conventions.md "Abuse limits": every limit on its success side (under it works;
 * another IP or another account is not affected) and its refusal side, at
 * the production numbers (lib/http/abuse-limits.ts and the environment
 * defaults), on this file's production server (tests/support/oidc-flow.ts:
 * NODE_ENV=production, TRUST_PROXY=1 so each simulated client has an IP of
 * its own, SMTP to a local catcher). A production app signs in.
 */
useServerDatabase();
useOidcProvider();

const REDIRECT = "https://rp.example/callback";
let t: Tenant;
let other: Tenant;

beforeAll(async () => {
  [t, other] = await Promise.all([createTenant(undefined, "production"), createTenant(undefined, "production")]);
  await cli(["app:redirect-uri", "--app", t.appId, "--uri", REDIRECT], shared().env);
});

const base = () => provider().op.url;

function authorizeUrl(state: string): URL {
  const url = new URL(`${base()}/api/auth/oidc/authorize`);
  url.search = new URLSearchParams({ client_id: t.clientId, redirect_uri: REDIRECT, response_type: "code", scope: "openid", state }).toString();
  return url;
}

const interactionRows = async (state: string) =>
  (await sql(shared().env, "SELECT count(*)::int AS n FROM oidc_interactions WHERE state = $1", [state]))[0].n as number;

function expectRateLimited(res: { status: number; headers: Headers; body: unknown; form?: boolean }) {
  expect(res.status).toBe(429);
  // A token endpoint form post (tokenRequest's answer) gets RFC 6749's body; everything else the envelope.
  if (res.form) expectTokenError(res as TokenAnswer, "rate_limited");
  else expectEnvelope(res.body, "rate_limited");
  expect(res.headers.get("retry-after")).toBeNull(); // spec 7 rule 3
}

/** A random IPv6 /64 prefix of the documentation range (`2001:db8:xxxx:xxxx`): its addresses are one client for the limits. */
const randomSlash64 = () => `2001:db8:${randomBytes(2).toString("hex")}:${randomBytes(2).toString("hex")}`;

describe("the authorization request", () => {
  it("stores nothing for an anonymous request: 150 a minute per IP (then a 429 page), the row comes with the email step", async () => {
    const state = `abuse-${randomUUID()}`;
    const ip = randomIp();
    for (let i = 0; i < 150; i++) {
      const res = await get(authorizeUrl(state).href, { ip });
      expect(res.status).toBe(303);
      expect(res.headers.get("set-cookie")).toMatch(/^svc_oidc_interaction=[A-Za-z0-9_-]{100,}; Path=\/oidc\/interaction\//);
    }
    expect(await interactionRows(state)).toBe(0);
    const limited = await get(authorizeUrl(state).href, { ip });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("content-type")).toMatch(/text\/html/);
    expect(await limited.text()).toContain("rate_limited");
    expect((await get(authorizeUrl(state).href, { ip: randomIp() })).status).toBe(303);

    // The page is served from the sealed cookie; still no row. The email step stores the request.
    const b = await startLogin(authorizeUrl(state));
    expect(text(b.html)).toContain("Email");
    expect(await interactionRows(state)).toBe(0);
    const email = newEmail();
    const sent = await post(`${b.page}/email`, b, { csrf: csrfOf(b.html), email });
    expect(sent.headers.get("location")).toBe(b.page);
    expect(await interactionRows(state)).toBe(1);
    await provider().smtp.next(email);
  });

  it("a changed or foreign cookie opens no sign-in request", async () => {
    const state = `abuse-${randomUUID()}`;
    const b = await startLogin(authorizeUrl(state));
    const [name, value] = b.cookie.split("=") as [string, string];
    const flipped = `${name}=${value.slice(0, 40)}${value[40] === "A" ? "B" : "A"}${value.slice(41)}`;
    expect(text(await (await get(b.page, { ip: b.ip, cookie: flipped })).text())).toContain("This sign-in request is no longer valid");
    expect(text(await (await get(b.page, b)).text())).not.toContain("This sign-in request is no longer valid");
    // Another request's cookie does not open this one.
    const second = await startLogin(authorizeUrl(state));
    const crossed = await post(`${b.page}/email`, { ip: b.ip, cookie: second.cookie }, { csrf: csrfOf(second.html), email: newEmail() });
    expect(crossed.headers.get("location")).toBe(b.page);
    expect(await interactionRows(state)).toBe(0);
  });

  it("a request too long for one cookie is split over several and still signs in", async () => {
    const state = `abuse-${randomUUID()}-${"s".repeat(1990)}`;
    const url = authorizeUrl(state);
    url.searchParams.set("nonce", "n".repeat(2048));
    const ip = randomIp();
    const res = await get(url.href, { ip });
    expect(res.status).toBe(303);
    const cookies = res.headers.getSetCookie();
    expect(cookies.map((c) => c.split("=")[0])).toEqual(["svc_oidc_interaction", "svc_oidc_interaction.1"]);
    expect(cookies.every((c) => c.length < 4000)).toBe(true);
    const b = { ip, page: res.headers.get("location")!, cookie: cookies.map((c) => c.split(";")[0]).join("; ") };
    const html = await (await get(b.page, b)).text();
    expect(text(html)).not.toContain("This sign-in request is no longer valid");
    expect(csrfOf(html)).not.toBe("");
    const email = newEmail();
    expect((await post(`${b.page}/email`, b, { csrf: csrfOf(html), email })).headers.get("location")).toBe(b.page);
    await provider().smtp.next(email);
    const [row] = await sql(shared().env, "SELECT nonce FROM oidc_interactions WHERE state = $1", [state]);
    expect(row.nonce).toBe("n".repeat(2048));
  });
});

describe("token endpoint client authentication", () => {
  const attempt = (tenant: Pick<Tenant, "clientId" | "clientSecret">, ip: string) =>
    tokenRequest(
      { grant_type: "authorization_code", code: "ac_bogus", redirect_uri: REDIRECT, client_id: tenant.clientId, client_secret: tenant.clientSecret },
      { headers: { "x-forwarded-for": ip } },
    );
  const wrong = (tenant: Tenant) => ({ clientId: tenant.clientId, clientSecret: `${tenant.clientSecret}x` });
  /** The OAuth error of a form post's answer (RFC 6749 5.2: a top-level `error`). */
  const oauthError = (res: { body: any }) => res.body.error;
  /** Client authentication passed: the (bogus) code is what is refused. */
  const authenticated = (res: { status: number; body: any }) => expect([res.status, oauthError(res)]).toEqual([400, "invalid_grant"]);
  const refused = (res: { status: number; body: any }) => expect([res.status, oauthError(res)]).toEqual([401, "invalid_client"]);

  it("10 failures per client from one IP, then 429 even with the right secret; other IPs and clients unaffected", async () => {
    const ip = randomIp();
    for (let i = 0; i < 10; i++) refused(await attempt(wrong(t), ip));
    expectRateLimited(await attempt(t, ip));
    authenticated(await attempt(t, randomIp()));
    refused(await attempt(wrong(t), randomIp()));
    authenticated(await attempt(other, ip));
  });

  it("a relying party's backend sending 20 concurrent requests with the right secret from one IP is never limited", async () => {
    const ip = randomIp();
    const burst = await Promise.all(Array.from({ length: 20 }, () => attempt(t, ip)));
    for (const res of burst) authenticated(res);
  });

  it("a success clears the client's count from that IP", async () => {
    const ip = randomIp();
    for (let i = 0; i < 9; i++) refused(await attempt(wrong(t), ip));
    authenticated(await attempt(t, ip));
    for (let i = 0; i < 10; i++) refused(await attempt(wrong(t), ip));
    expectRateLimited(await attempt(t, ip));
  });

  it("an IPv6 client counts by its /64: failures from any of its addresses share one budget; the next /64 is unaffected", async () => {
    const net = randomSlash64();
    for (let i = 0; i < 10; i++) refused(await attempt(wrong(t), `${net}:${i.toString(16)}:0:0:${i + 1}`));
    expectRateLimited(await attempt(t, `${net}::abcd`));
    authenticated(await attempt(t, `${randomSlash64()}::1`));
  });

  it("30 failures from one IP across clients, then 429 for every client from it", async () => {
    const ip = randomIp();
    for (let i = 0; i < 30; i++) refused(await attempt({ clientId: `cli_unknown${i % 3}`, clientSecret: "nope" }, ip));
    expectRateLimited(await attempt(other, ip));
    authenticated(await attempt(other, randomIp()));
  });
});

describe("one-time sign-in codes", () => {
  it("5 codes per sign-in request, then refused; the same address from a new request still gets one", async () => {
    const b = await startLogin(authorizeUrl(`abuse-${randomUUID()}`));
    const csrf = csrfOf(b.html);
    const emails = Array.from({ length: 6 }, () => newEmail());
    for (const email of emails.slice(0, 5)) expect((await post(`${b.page}/email`, b, { csrf, email })).headers.get("location")).toBe(b.page);
    expect((await post(`${b.page}/email`, b, { csrf, email: emails[5]! })).headers.get("location")).toBe(`${b.page}?m=too_many_codes`);
    const fresh = await startLogin(authorizeUrl(`abuse-${randomUUID()}`));
    expect((await post(`${fresh.page}/email`, fresh, { csrf: csrfOf(fresh.html), email: emails[5]! })).headers.get("location")).toBe(fresh.page);
    expect(text(await (await get(`${b.page}?m=too_many_codes`, b)).text())).toContain("Too many codes were requested");
  });

  it("100 codes per client IP an hour, then refused; another IP is not affected", async () => {
    const ip = randomIp();
    const state = `abuse-${randomUUID()}`;
    const send = async (b: Awaited<ReturnType<typeof startLogin>>, email = newEmail()) =>
      (await post(`${b.page}/email`, b, { csrf: csrfOf(b.html), email })).headers.get("location");
    const from = async (address: string) => ({ ...(await startLogin(authorizeUrl(state))), ip: address });
    // The first code from this IP over HTTP (the cookie binds the browser, not its address); then the
    // rows that 98 more sends from it would have left this hour.
    const first = await from(ip);
    expect(await send(first)).toBe(first.page);
    const [{ id }] = await sql(shared().env, "SELECT interaction_id AS id FROM account_login_codes WHERE request_ip = $1", [ip]);
    await sql(
      shared().env,
      `INSERT INTO account_login_codes (id, interaction_id, email, code_hash, request_ip, expires_at, consumed_at, created_at)
       SELECT gen_random_uuid()::text, $1, 'seeded-' || g || '-' || $2, 'x', $2, now() + interval '10 minutes', now(), now() FROM generate_series(1, 98) g`,
      [id, ip],
    );
    const hundredth = await from(ip);
    expect(await send(hundredth)).toBe(hundredth.page);
    const refused = await from(ip);
    expect(await send(refused)).toBe(`${refused.page}?m=too_many_codes`);
    const elsewhere = await startLogin(authorizeUrl(state));
    expect(await send(elsewhere)).toBe(elsewhere.page);
  });
});

describe("developer portal sign-in (production defaults)", () => {
  const signUp = async (ip: string) => {
    const email = `abuse-${randomUUID()}@example.com`;
    const res = await postSignUp({ email, password: "correct-horse-battery" }, base(), { "x-forwarded-for": ip });
    expect(res.status).toBe(201);
    return email;
  };
  const signIn = (email: string, password: string, ip: string) => signInOverHttp(email, password, base(), { "x-forwarded-for": ip });

  it("10 failed attempts per account and IP in 15 minutes; other IPs and other accounts unaffected", async () => {
    const ip = randomIp();
    const [victim, bystander] = [await signUp(ip), await signUp(ip)];
    for (let i = 0; i < 10; i++) expect((await signIn(victim, "wrong-password-1", ip)).error).toBe("CredentialsSignin");
    expect(await signIn(victim, "correct-horse-battery", ip)).toMatchObject({ error: "rate_limited", signedIn: false });
    expect((await signIn(victim, "correct-horse-battery", randomIp())).signedIn).toBe(true);
    expect((await signIn(bystander, "correct-horse-battery", ip)).signedIn).toBe(true);
  });

  it("50 failed attempts per IP in 15 minutes, whatever the account; other IPs unaffected", async () => {
    const ip = randomIp();
    const email = await signUp(randomIp());
    for (let i = 0; i < 50; i++) expect((await signIn(`ghost-${randomUUID()}@example.com`, "wrong-password-1", ip)).error).toBe("CredentialsSignin");
    expect((await signIn(email, "correct-horse-battery", ip)).error).toBe("rate_limited");
    expect((await signIn(email, "correct-horse-battery", randomIp())).signedIn).toBe(true);
  });
});

describe("developer portal sign-up (production default)", () => {
  const developersWith = async (email: string) => (await sql(shared().env, "SELECT count(*)::int AS n FROM developers WHERE email = $1", [email]))[0].n as number;
  const signUp = (email: string, ip: string) => postSignUp({ email, password: "correct-horse-battery" }, base(), { "x-forwarded-for": ip });

  it("5 sign-ups an hour per IP, counted before the account is made; other IPs unaffected", async () => {
    const ip = randomIp();
    for (let i = 0; i < 5; i++) {
      const res = await signUp(`abuse-${randomUUID()}@example.com`, ip);
      expect(res.status, res.text).toBe(201);
    }
    const sixth = `abuse-${randomUUID()}@example.com`;
    expectRateLimited(await signUp(sixth, ip));
    expect(await developersWith(sixth)).toBe(0);
    expect((await signUp(sixth, randomIp())).status).toBe(201);
  });

  it("an IPv6 client counts by its /64: sign-ups from any of its addresses share the 5; another /64 is unaffected", async () => {
    const net = randomSlash64();
    const spellings = [`${net}::1`, `${net}:0:0:0:2`, `${net.toUpperCase()}::ABCD`, `${net}:1:2:3:4`, `${net}:ffff:ffff:ffff:ffff`];
    for (const address of spellings) {
      const res = await signUp(`abuse-${randomUUID()}@example.com`, address);
      expect(res.status, `${address}: ${res.text}`).toBe(201);
    }
    const sixth = `abuse-${randomUUID()}@example.com`;
    expectRateLimited(await signUp(sixth, `${net}:9:8:7:6`));
    expect(await developersWith(sixth)).toBe(0);
    expect((await signUp(sixth, `${randomSlash64()}::1`)).status).toBe(201);
  });
});

describe("developer portal password reset mails", () => {
  const ask = (email: string, ip: string) =>
    api("POST", "/api/portal/password-reset", { base: base(), json: { email }, headers: { "x-forwarded-for": ip, origin: base() } });

  it("3 an hour per email, 20 an hour per IP; other addresses and IPs unaffected", async () => {
    const email = `abuse-${randomUUID()}@example.com`;
    for (let i = 0; i < 3; i++) expect((await ask(email, randomIp())).status).toBe(202);
    expectRateLimited(await ask(email, randomIp()));
    const ip = randomIp();
    for (let i = 0; i < 20; i++) expect((await ask(`abuse-${randomUUID()}@example.com`, ip)).status).toBe(202);
    expectRateLimited(await ask(`abuse-${randomUUID()}@example.com`, ip));
    expect((await ask(`abuse-${randomUUID()}@example.com`, randomIp())).status).toBe(202);
  });
});

describe("account recovery start (organization API)", () => {
  it("60 a minute per app, eligible or not; another app is not affected", async () => {
    const ip = randomIp();
    const start = (tenant: Tenant) =>
      api("POST", "/api/sdk/recovery/session", {
        base: base(),
        headers: { "X-Client-Id": tenant.clientId, "X-Client-Secret": tenant.clientSecret, "x-forwarded-for": ip },
        json: { svcId: randomUUID(), variant: "without_id" },
      });
    // The app has no webhook: each request is counted, then refused with 400.
    const answers = await Promise.all(Array.from({ length: 60 }, () => start(t)));
    expect(answers.map((a) => a.body.error.code)).toEqual(Array(60).fill("invalid_request"));
    const limited = await start(t);
    expectRateLimited(limited);
    expect((await start(other)).body.error.code).toBe("invalid_request");
  });
});
