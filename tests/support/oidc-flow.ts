import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import * as client from "openid-client";
import { afterAll, beforeAll, expect } from "vitest";
import { api, shared } from "./api";
import { assertMatchesContract, recordAndCheck } from "./contract";
import { startServer, type RunningServer } from "./server";
import { startSmtp, type TestSmtp } from "./smtp";

/**
 * The OpenID Connect provider driven the way a relying party and a browser
 * without JavaScript drive it (cookies, forms, 303s), for the OIDC test
 * files. `useOidcProvider()` starts, for the calling file, a production
 * server of its own on the shared database (SMTP to a local catcher, so the
 * one-time codes are read from mail; TRUST_PROXY, so each simulated browser
 * has its own client IP; face sign-in asking for head turns only, because
 * the test person of fixtures/faces cannot blink).
 */
let running: { op: RunningServer; smtp: TestSmtp } | null = null;
const defaults: { config?: client.Configuration; redirectUri: string } = { redirectUri: "http://localhost:8080/callback" };

export function provider(): { op: RunningServer; smtp: TestSmtp } {
  if (!running) throw new Error("useOidcProvider() first");
  return running;
}

/**
 * `extra`: more configuration of this file's server (JOB_WORKER=on for the file that tests background jobs;
 * a database of the file's own). It is read when the server starts, so an earlier `beforeAll` may fill it in.
 */
export function useOidcProvider(extra: Record<string, string> = {}) {
  beforeAll(async () => {
    const smtp = await startSmtp();
    const op = await startServer({
      ...shared().env,
      SMTP_HOST: smtp.host,
      SMTP_PORT: String(smtp.port),
      TRUST_PROXY: "1",
      CREDENTIAL_CACHE_MS: "0",
      FACE_SIGN_IN_ACTIONS: "turn_left,turn_right",
      ...extra,
    });
    running = { op, smtp };
    // Domain-level calls in this process (signing an expired hint, sealing a cookie) must name the same issuer.
    process.env.PUBLIC_BASE_URL = op.url;
  });
  afterAll(async () => {
    await running?.op.stop();
    await running?.smtp.stop();
    running = null;
  });
}

/** The client `authorize` and `exchange` use when not given one. */
export function useDefaultClient(config: client.Configuration, redirectUri: string) {
  defaults.config = config;
  defaults.redirectUri = redirectUri;
}

/** A relying party's callback: a real listener (a redirected navigation is not seen by page.route); `callback` is the last one received. */
export async function startCallbackListener() {
  const listener = {
    redirectUri: "",
    callback: undefined as URL | undefined,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    if (req.url!.startsWith("/cb?")) listener.callback = new URL(req.url!, listener.redirectUri);
    res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><html lang=en><title>RP</title><p>ok</p>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  listener.redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cb`;
  return listener;
}

let emailCounter = 0;
export const newEmail = () => `person${Date.now()}${emailCounter++}@example.com`;
export const randomIp = () => `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]! % 250 + 1}`;

/** A "browser" of the sign-in pages: its interaction cookie, and once signed in its provider session cookie (`name=value`). */
export type Browser = { ip: string; cookie: string; page: string; session?: string; sessionSetCookie?: string };

/** The provider session cookie (`svc_oidc_session=...`, lib/oidc/provider-session.ts) a response set, with its attributes, or undefined. */
export function sessionSetCookie(res: Response): string | undefined {
  return res.headers.getSetCookie().find((c) => c.startsWith("svc_oidc_session="));
}

/**
 * A browser's answer from a documented operation (authorize, logout) must
 * match the OpenAPI document like an `api()` answer (status, X-Request-Id,
 * content type); the sign-in pages are not part of it (support/contract.ts
 * `recordAndCheck`, which reads a clone: the caller can still read the body).
 */
export async function get(url: string, b: Pick<Browser, "ip"> & { cookie?: string }) {
  return recordAndCheck("GET", url, await fetch(url, { redirect: "manual", headers: { "x-forwarded-for": b.ip, ...(b.cookie ? { cookie: b.cookie } : {}) } }));
}

export async function post(url: string, b: Pick<Browser, "ip"> & { cookie?: string }, form: Record<string, string>) {
  return recordAndCheck("POST", url, await fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-forwarded-for": b.ip,
      ...(b.cookie ? { cookie: b.cookie } : {}),
    },
    body: new URLSearchParams(form).toString(),
  }));
}

export const csrfOf = (html: string) => html.match(/name="csrf" value="([^"]+)"/)?.[1] ?? "";
export const text = (html: string) => html.replace(/<script[\s\S]*?<\/script>/g, "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

/**
 * Starts an authorization in a fresh "browser": follows authorize to the
 * sign-in page. `post`: the authorization request sent as a form POST
 * (OIDC Core 3.1.2.1) instead of a navigation.
 */
export async function startLogin(authorizationUrl: URL, options: { post?: boolean; session?: string } = {}): Promise<Browser & { html: string }> {
  const ip = randomIp();
  const browser = { ip, cookie: options.session };
  const res = options.post
    ? await post(`${authorizationUrl.origin}${authorizationUrl.pathname}`, browser, Object.fromEntries(authorizationUrl.searchParams))
    : await get(authorizationUrl.href, browser);
  expect(res.status).toBe(303);
  const page = res.headers.get("location")!;
  expect(page).toMatch(new RegExp(`^${provider().op.url}/oidc/interaction/[0-9a-f-]{36}$`));
  const setCookie = res.headers.get("set-cookie")!;
  expect(setCookie).toMatch(/HttpOnly/i);
  expect(setCookie).toMatch(/SameSite=Lax/i);
  expect(setCookie).toContain(`Path=${new URL(page).pathname}`);
  const cookie = [setCookie.split(";")[0]!, ...(options.session ? [options.session] : [])].join("; ");
  const html = await (await get(page, { ip, cookie })).text();
  return { ip, cookie, page, html, session: options.session };
}

export async function readCode(email: string): Promise<string> {
  const mail = await provider().smtp.next(email);
  const code = mail.raw.match(/^Subject: (\d{6}) is your sign-in code/m)?.[1];
  expect(code, mail.raw).toBeTruthy();
  return code!;
}

/** Email -> code -> the consent page. */
export async function login(b: Browser & { html: string }, email: string): Promise<string> {
  const csrf = csrfOf(b.html);
  const sent = await post(`${b.page}/email`, b, { csrf, email });
  expect(sent.status).toBe(303);
  expect(sent.headers.get("location")).toBe(b.page);
  const code = await readCode(email);
  const signedIn = await post(`${b.page}/code`, b, { csrf, code });
  expect(signedIn.headers.get("location")).toBe(b.page);
  b.sessionSetCookie = sessionSetCookie(signedIn);
  b.session = b.sessionSetCookie?.split(";")[0];
  return (await get(b.page, b)).text();
}

/**
 * Email -> code for the service's own account page (/account, and the
 * activation page's sign-in), which asks no consent: returns where the
 * code's post sends the browser, the page's callback with the code.
 */
export async function loginFirstParty(b: Browser & { html: string }, email: string): Promise<string> {
  const csrf = csrfOf(b.html);
  const sent = await post(`${b.page}/email`, b, { csrf, email });
  expect(sent.headers.get("location")).toBe(b.page);
  const signedIn = await post(`${b.page}/code`, b, { csrf, code: await readCode(email) });
  expect(signedIn.status).toBe(303);
  const callback = signedIn.headers.get("location")!;
  expect(callback).toMatch(new RegExp(`^${provider().op.url}/account/callback\\?code=`));
  return callback;
}

/** `session`: the browser's provider sign-in session cookie (`svc_oidc_session=...`). */
export type Flow = { callback: URL; verifier: string; state: string; nonce: string; email: string; session?: string };

/** A whole authorization: the RP's URL (PKCE, state, nonce), sign-in, consent; returns the callback URL. */
export async function authorize(
  options: { scope?: string; email?: string; decision?: "allow" | "deny"; redirectUri?: string; cfg?: client.Configuration } = {},
): Promise<Flow> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const email = options.email ?? newEmail();
  const url = client.buildAuthorizationUrl(options.cfg ?? defaults.config!, {
    redirect_uri: options.redirectUri ?? defaults.redirectUri,
    scope: options.scope ?? "openid profile verifications",
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    nonce,
  });
  const browser = await startLogin(url);
  const callback = await finishSignIn(browser, email, options.decision);
  return { callback, verifier, state, nonce, email, session: browser.session };
}

/** From the sign-in page (`startLogin`): email, code, then the consent decision; returns the callback URL. */
export async function finishSignIn(b: Browser & { html: string }, email: string, decision: "allow" | "deny" = "allow"): Promise<URL> {
  const consent = await login(b, email);
  expect(text(consent)).toContain(`You are signed in as ${email}`);
  const done = await post(`${b.page}/consent`, b, { csrf: csrfOf(consent), decision });
  expect(done.status).toBe(303);
  expect(done.headers.get("set-cookie")).toMatch(/Max-Age=0/);
  return new URL(done.headers.get("location")!);
}

export async function exchange(flow: Flow, cfg = defaults.config!) {
  return client.authorizationCodeGrant(cfg, flow.callback, {
    pkceCodeVerifier: flow.verifier,
    expectedState: flow.state,
    expectedNonce: flow.nonce,
    idTokenExpected: true,
  });
}

/**
 * A raw token request, as the spec shows it (JSON) or as standard clients send
 * it (form). Like `api()`, the answer must match the OpenAPI document
 * (support/contract.ts), or the call throws.
 */
export async function tokenRequest(body: Record<string, string>, options: { json?: boolean; headers?: Record<string, string> } = {}): Promise<TokenAnswer> {
  const url = `${provider().op.url}/api/auth/oidc/token`;
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": options.json ? "application/json" : "application/x-www-form-urlencoded",
      ...options.headers,
    },
    body: options.json ? JSON.stringify(body) : new URLSearchParams(body).toString(),
  });
  const text = await res.text();
  const answer = { status: res.status, headers: res.headers, text, body: JSON.parse(text) as any };
  assertMatchesContract("POST", url, answer);
  return { status: answer.status, headers: answer.headers, body: answer.body, form: !options.json };
}

export type TokenAnswer = { status: number; headers: Headers; body: any; form: boolean };

/**
 * A token endpoint error: RFC 6749 5.2's body for a form post (what OAuth
 * libraries read), the spec envelope for a JSON request.
 */
export function expectTokenError(answer: TokenAnswer, code: string) {
  if (answer.form) {
    expect(answer.body).toEqual({ error: code, error_description: expect.stringMatching(/^[\x20\x21\x23-\x5b\x5d-\x7e]+$/) });
  } else {
    expectEnvelope(answer.body, code);
  }
  expect(answer.headers.get("cache-control")).toBe("no-store");
}

export const bearer = (path: string, token: string) => api("GET", path, { base: provider().op.url, headers: { authorization: `Bearer ${token}` } });

export function expectEnvelope(body: any, code: string) {
  expect(body).toEqual({ success: false, data: expect.anything(), error: { code, message: expect.any(String) } });
}
