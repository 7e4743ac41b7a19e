import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, shared } from "../support/api";
import { useServerDatabase } from "../support/domain";
import { randomIp } from "../support/oidc-flow";
import { signInOverHttp } from "../support/portal";
import { credentialsPost, forwardedFor, openBrowser, signOutOverHttp, signUpOver, type Browser } from "../support/portal-sessions";
import { startServer, type RunningServer } from "../support/server";
import { startSmtp, type TestSmtp } from "../support/smtp";

/**
 * docs/portal.md (sign-in, sign-out, sessions) and the sign-in
 * rows of "Abuse limits", on a production server of this file's own
 * (NODE_ENV=production, every guard on, the production sign-in limits;
 * TRUST_PROXY so each simulated browser has a client IP of its own; SMTP to
 * a local catcher for password reset links):
 * - a portal session lives server-side: sign-out, a password reset and
 *   endDeveloperSessions end it at once, for every copy of the cookie;
 * - failed sign-ins lock (account, IP) and IP, never the account elsewhere;
 * - no callbackUrl makes next-auth answer 500 or leave the portal's origin.
 */
useServerDatabase();

const PASSWORD = "correct-horse-battery";
let server: RunningServer;
let smtp: TestSmtp;
let base: string;

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({ ...shared().env, TRUST_PROXY: "1", SMTP_HOST: smtp.host, SMTP_PORT: String(smtp.port) });
  base = server.url;
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

async function newApp(browser: Browser): Promise<string> {
  const created = await browser.call("POST", "/api/portal/apps", { json: { name: "Shop", environment: "test" } });
  expect(created.status).toBe(201);
  return created.body.data.app_id;
}

const createKey = (browser: Pick<Browser, "call">, appId: string) => browser.call("POST", `/api/portal/apps/${appId}/keys`, { json: { name: "backend" } });

/** The dashboard's apps page as this cookie sees it: 200, or where it is sent. */
async function dashboard(browser: Pick<Browser, "ip" | "cookie">): Promise<{ status: number; location: string | null }> {
  const res = await fetch(`${base}/dashboard/apps`, { redirect: "manual", headers: { cookie: browser.cookie, ...forwardedFor(browser.ip) } });
  await res.arrayBuffer();
  return { status: res.status, location: res.headers.get("location") };
}

async function resetPassword(email: string, password: string): Promise<void> {
  const asked = await api("POST", "/api/portal/password-reset", { base, json: { email }, headers: { ...forwardedFor(randomIp()), origin: base } });
  expect(asked.status).toBe(202);
  // The sign-up's verification mail may come first: the reset link is in the next mail that has one.
  let link: RegExpMatchArray | null = null;
  while (!link) link = (await smtp.next(email)).raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=").match(/\/reset-password#token=([A-Za-z0-9_%-]+)/);
  const token = decodeURIComponent(link[1]!);
  const done = await api("POST", "/api/portal/password-reset/confirm", { base, json: { token, password }, headers: { ...forwardedFor(randomIp()), origin: base } });
  expect(done.status).toBe(200);
}

describe("portal sessions end server-side", () => {
  it("sign-out ends the session: a copy of its cookie can no longer create an API key or open the dashboard; the developer's other session lives on", async () => {
    const email = await signUpOver(base, PASSWORD);
    const laptop = await openBrowser(base, email, PASSWORD);
    const phone = await openBrowser(base, email, PASSWORD);
    const appId = await newApp(laptop);
    const copied: Browser = { ...laptop };
    expect((await createKey(copied, appId)).status).toBe(201);
    expect((await dashboard(copied)).status).toBe(200);
    const sessionRead = async (browser: Browser) =>
      (await fetch(`${base}/api/portal/auth/session`, { headers: { cookie: browser.cookie, ...forwardedFor(browser.ip) } })).json();
    expect(await sessionRead(copied)).toMatchObject({ user: { email } });

    const out = await signOutOverHttp(base, laptop);
    expect(out.status).toBe(303);
    expect(new URL(out.headers.get("location")!, base).href).toBe(`${base}/sign-in?signedOut=1`);
    expect(out.headers.getSetCookie().some((c) => c.startsWith("next-auth.session-token=;"))).toBe(true);

    const refused = await createKey(copied, appId);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("sign_in_required");
    const page = await dashboard(copied);
    expect(page.status).toBe(307);
    expect(new URL(page.location!, base).pathname).toBe("/sign-in");
    expect(await sessionRead(copied)).toEqual({});

    expect((await createKey(phone, appId)).status).toBe(201);
    expect((await dashboard(phone)).status).toBe(200);
  });

  it("a password reset ends every session of the developer at once; the new password signs in", async () => {
    const email = await signUpOver(base, PASSWORD);
    const [laptop, phone] = [await openBrowser(base, email, PASSWORD), await openBrowser(base, email, PASSWORD)];
    const appId = await newApp(laptop);
    expect((await createKey(phone, appId)).status).toBe(201);

    await resetPassword(email, "brand-new-password-2");

    for (const browser of [laptop, phone]) {
      expect((await createKey(browser, appId)).status).toBe(401);
      expect((await dashboard(browser)).status).toBe(307);
    }
    const again = await openBrowser(base, email, "brand-new-password-2");
    expect((await createKey(again, appId)).status).toBe(201);
  });

  it("endDeveloperSessions (removal from an organization) ends every open session on the running server at once", async () => {
    const email = await signUpOver(base, PASSWORD);
    const browser = await openBrowser(base, email, PASSWORD);
    const appId = await newApp(browser);
    const { db } = await import("@/lib/db/client");
    const { endDeveloperSessions } = await import("@/lib/portal/developer-sessions");
    const developer = await (await db()).developer.findUniqueOrThrow({ where: { email } });
    expect(await endDeveloperSessions(developer.id)).toBe(1);
    expect((await createKey(browser, appId)).status).toBe(401);
  });

  it("a session past its 8 hours is refused, and the sweep deletes its row; a live one is kept", async () => {
    const email = await signUpOver(base, PASSWORD);
    const [stale, live] = [await openBrowser(base, email, PASSWORD), await openBrowser(base, email, PASSWORD)];
    const appId = await newApp(stale);
    const { db } = await import("@/lib/db/client");
    const { purgeExpiredDeveloperSessions } = await import("@/lib/portal/developer-sessions");
    const prisma = await db();
    const developer = await prisma.developer.findUniqueOrThrow({ where: { email }, include: { sessions: { orderBy: { createdAt: "asc" } } } });
    expect(developer.sessions).toHaveLength(2);
    const [staleRow, liveRow] = [developer.sessions[0]!, developer.sessions[1]!];
    expect(staleRow.expiresAt.getTime() - staleRow.createdAt.getTime()).toBe(8 * 3600_000);
    await prisma.developerSession.update({ where: { id: staleRow.id }, data: { expiresAt: new Date(Date.now() - 1000) } });

    expect((await createKey(stale, appId)).status).toBe(401);
    expect(await purgeExpiredDeveloperSessions()).toBeGreaterThanOrEqual(1);
    expect((await prisma.developerSession.findMany({ where: { developerId: developer.id } })).map((row) => row.id)).toEqual([liveRow.id]);
    expect((await createKey(live, appId)).status).toBe(201);
  });
});

describe("sign-in limits: failures only, per (account, IP) and per IP", () => {
  it("10 failed attempts from one IP lock that IP out of the account, the right password included; another IP signs in, and the locked IP still signs in to other accounts", async () => {
    const [victim, neighbour] = [await signUpOver(base, PASSWORD), await signUpOver(base, PASSWORD)];
    const [attacker, owner] = [randomIp(), randomIp()];
    for (let i = 0; i < 10; i++) expect((await signInOverHttp(victim, "wrong-password-1", base, forwardedFor(attacker))).error).toBe("CredentialsSignin");
    expect(await signInOverHttp(victim, PASSWORD, base, forwardedFor(attacker))).toMatchObject({ status: 401, error: "rate_limited", signedIn: false });
    expect((await signInOverHttp(victim, PASSWORD, base, forwardedFor(owner))).signedIn).toBe(true);
    expect((await signInOverHttp(neighbour, PASSWORD, base, forwardedFor(attacker))).signedIn).toBe(true);
  });

  it("a burst of 25 concurrent wrong passwords from one IP gets at most 10 tries at the password; the rest are refused", async () => {
    const email = await signUpOver(base, PASSWORD);
    const ip = randomIp();
    const burst = await Promise.all(Array.from({ length: 25 }, () => signInOverHttp(email, "wrong-password-1", base, forwardedFor(ip))));
    const tried = burst.filter((r) => r.error === "CredentialsSignin").length;
    expect(tried).toBeGreaterThan(0);
    expect(tried).toBeLessThanOrEqual(10);
    expect(burst.filter((r) => r.error === "rate_limited")).toHaveLength(25 - tried);
    expect(await signInOverHttp(email, PASSWORD, base, forwardedFor(ip))).toMatchObject({ error: "rate_limited", signedIn: false });
  });

  it("successful sign-ins never count (15 in a row), and one clears the failures counted before it", async () => {
    const email = await signUpOver(base, PASSWORD);
    const ip = randomIp();
    for (let i = 0; i < 15; i++) expect((await signInOverHttp(email, PASSWORD, base, forwardedFor(ip))).signedIn).toBe(true);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 9; i++) expect((await signInOverHttp(email, "wrong-password-1", base, forwardedFor(ip))).error).toBe("CredentialsSignin");
      expect((await signInOverHttp(email, PASSWORD, base, forwardedFor(ip))).signedIn).toBe(true);
    }
  });
});

describe("callbackUrl never answers 500 nor leaves the portal's origin", () => {
  const hostile = ["//evil.example/", "http://evil.example/", "javascript:alert(1)", "/\\evil.example", "http://[::1"];

  it("GET signin sends to the sign-in page on this origin: a portal path is kept as callbackUrl, another origin becomes the dashboard, a non-HTTP URL is dropped", async () => {
    for (const callbackUrl of [...hostile, "/dashboard/wallet"]) {
      const res = await fetch(`${base}/api/portal/auth/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`, { redirect: "manual", headers: { ...forwardedFor(randomIp()), origin: base } });
      expect(res.status, callbackUrl).toBe(303);
      const location = new URL(res.headers.get("location")!, base);
      expect(location.origin, callbackUrl).toBe(base);
      expect(location.pathname).toBe("/sign-in");
      const kept = location.searchParams.get("callbackUrl");
      if (callbackUrl === "/dashboard/wallet") expect(kept).toBe(`${base}/dashboard/wallet`);
      else if (callbackUrl.startsWith("javascript:") || callbackUrl === "http://[::1") expect(kept, callbackUrl).toBeNull();
      else expect(kept, callbackUrl).toBe(`${base}/dashboard`);
    }
  });

  it("the credentials POST signs in and answers a same-origin URL, as JSON and as a redirect; a wrong password's error page too", async () => {
    const email = await signUpOver(base, PASSWORD);
    for (const callbackUrl of [...hostile, "/dashboard/wallet"]) {
      const expected = callbackUrl === "/dashboard/wallet" ? `${base}/dashboard/wallet` : `${base}/dashboard`;
      const asJson = await credentialsPost(base, randomIp(), { email, password: PASSWORD, callbackUrl, json: true });
      expect(asJson.status, callbackUrl).toBe(200);
      expect(((await asJson.json()) as { url: string }).url, callbackUrl).toBe(expected);
      expect(asJson.headers.getSetCookie().some((c) => c.startsWith("next-auth.session-token="))).toBe(true);

      const redirected = await credentialsPost(base, randomIp(), { email, password: PASSWORD, callbackUrl });
      expect(redirected.status, callbackUrl).toBe(303);
      expect(new URL(redirected.headers.get("location")!, base).href, callbackUrl).toBe(expected);

      const wrong = await credentialsPost(base, randomIp(), { email, password: "wrong-password-1", callbackUrl });
      expect(wrong.status, callbackUrl).toBe(303);
      expect(new URL(wrong.headers.get("location")!, base).origin, callbackUrl).toBe(base);
    }
  });

  it("sign-out with a hostile callbackUrl returns to the portal", async () => {
    const email = await signUpOver(base, PASSWORD);
    for (const callbackUrl of hostile) {
      const browser = await openBrowser(base, email, PASSWORD);
      const out = await signOutOverHttp(base, browser, callbackUrl);
      expect(out.status, callbackUrl).toBe(303);
      expect(new URL(out.headers.get("location")!, base).href, callbackUrl).toBe(`${base}/dashboard`);
    }
  });
});
