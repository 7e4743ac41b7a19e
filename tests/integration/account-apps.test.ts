import * as client from "openid-client";
import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, shared, type Tenant } from "../support/api";
import { cli } from "../support/cli";
import { sql } from "../support/database";
import { useServerDatabase } from "../support/domain";
import {
  authorize,
  bearer,
  csrfOf,
  exchange,
  expectTokenError,
  newEmail,
  post,
  provider,
  randomIp,
  readCode,
  startLogin,
  text,
  tokenRequest,
  useOidcProvider,
} from "../support/oidc-flow";

/**
 * The account page (/account) and the apps the person signed in to through
 * OIDC (docs/hosted-flow.md "The person's account page"), over HTTP like a browser
 * without JavaScript, for a production app: the account page's own client
 * signs in without a consent screen (a third-party app still asks); the
 * page lists the app with what it may read; revoking ends every token of
 * its sign-in at once.
 */
useServerDatabase();
useOidcProvider();

const op = () => provider().op.url;
const REDIRECT = "https://rp.example/callback";
const SCOPES = "openid profile verifications zkp";

/** A browser of the account page: its cookies by name. */
class AccountBrowser {
  readonly ip = randomIp();
  readonly cookies = new Map<string, string>();
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
  keep(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (/Max-Age=0/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }
  async get(url: string) {
    return this.keep(await fetch(url.startsWith("http") ? url : `${op()}${url}`, { redirect: "manual", headers: { "x-forwarded-for": this.ip, cookie: this.header() } }));
  }
  async post(path: string, form: Record<string, string>) {
    return this.keep(
      await fetch(`${op()}${path}`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": this.ip, cookie: this.header(), origin: op() },
        body: new URLSearchParams(form).toString(),
      }),
    );
  }
}

/** Signs in to /account: from "Sign in" to the page, following every redirect; returns the URLs visited. */
async function signInToAccount(b: AccountBrowser, email: string): Promise<string[]> {
  const visited: string[] = [];
  let res = await b.get("/account/sign-in");
  while (res.status === 303 || res.status === 302) {
    const location = res.headers.get("location")!;
    visited.push(location);
    if (new URL(location).pathname.startsWith("/oidc/interaction/")) {
      const html = await (await b.get(location)).text();
      expect(text(html)).toContain("to continue to Your account");
      const csrf = csrfOf(html);
      expect((await b.post(`${new URL(location).pathname}/email`, { csrf, email })).headers.get("location")).toBe(location);
      res = await b.post(`${new URL(location).pathname}/code`, { csrf, code: await readCode(email) });
      continue;
    }
    res = await b.get(location);
  }
  expect(res.status).toBe(200);
  return visited;
}

describe("the account page and the apps the person signed in to", () => {
  let t: Tenant;
  let config: client.Configuration;

  beforeAll(async () => {
    t = await createTenant(shared().env, "production");
    await cli(["app:redirect-uri", "--app", t.appId, "--uri", REDIRECT], shared().env);
    await cli(["app:scopes", "--app", t.appId, "--scopes", SCOPES], shared().env);
    config = await client.discovery(new URL(op()), t.clientId, t.clientSecret, undefined, { execute: [client.allowInsecureRequests] });
  });

  it("lists an app signed in with `profile verifications zkp` and its scopes; revoking makes its userinfo 401 and its refresh token invalid_grant", async () => {
    const flow = await authorize({ cfg: config, redirectUri: REDIRECT, scope: SCOPES });
    const tokens = await exchange(flow, config);
    expect((await bearer("/api/auth/oidc/userinfo", tokens.access_token)).status).toBe(200);
    const [{ name: appName }] = await sql(shared().env, "SELECT name FROM apps WHERE id = $1", [t.appId]);

    const b = new AccountBrowser();
    const visited = await signInToAccount(b, flow.email);
    // No consent step: from the code straight to the account page's callback.
    expect(visited.some((url) => url.startsWith(`${op()}/account/callback?code=`))).toBe(true);
    const page = await (await b.get("/account")).text();
    const shown = text(page);
    expect(shown).toContain(`Signed in as ${flow.email}.`);
    expect(shown).toContain("Apps you signed in to");
    expect(shown).toContain(appName);
    expect(shown).toContain("Your account id (to recognise you)");
    expect(shown).toContain("Your email address, your name");
    expect(shown).toContain("Whether you passed identity and liveness checks");
    expect(shown).toContain("Proofs about you (such as being over 18)");
    expect(shown).not.toContain("Your professional licences");
    expect(shown).toMatch(/Allowed on \d{1,2} \w+ \d{4}, last used on \d{1,2} \w+ \d{4}/);
    // The account page itself is not one of "the apps you signed in to".
    expect(shown).not.toMatch(/Revoke sign-in for Your account/);
    expect(page).toContain(`aria-label="Revoke sign-in for ${appName}"`);

    const csrf = csrfOf(page);
    // Refusals: no CSRF token; an app the person is not signed in to (another tenant's).
    expect((await b.post("/account/end-sign-in", { app_id: t.appId })).headers.get("location")).toBe(`${op()}/account?m=csrf`);
    const other = await createTenant(shared().env, "production");
    expect((await b.post("/account/end-sign-in", { csrf, app_id: other.appId })).headers.get("location")).toBe(`${op()}/account?m=sign_in_not_found`);
    expect((await bearer("/api/auth/oidc/userinfo", tokens.access_token)).status).toBe(200);

    const ended = await b.post("/account/end-sign-in", { csrf, app_id: t.appId });
    expect(ended.status).toBe(303);
    expect(ended.headers.get("location")).toBe(`${op()}/account?m=sign_in_ended`);
    expect(text(await (await b.get("/account?m=sign_in_ended")).text())).toContain("Sign-in revoked. That app can no longer read anything about you.");
    const dead = await bearer("/api/auth/oidc/userinfo", tokens.access_token);
    expect(dead.status).toBe(401);
    const refreshed = await tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token!, client_id: t.clientId, client_secret: t.clientSecret });
    expect(refreshed.status).toBe(400);
    expectTokenError(refreshed, "invalid_grant");
    const after = text(await (await b.get("/account")).text());
    expect(after).not.toContain(appName);
    expect(after).toContain("You are not signed in to any app with this account.");
    // Revoked twice: nothing left to end.
    expect((await b.post("/account/end-sign-in", { csrf, app_id: t.appId })).headers.get("location")).toBe(`${op()}/account?m=sign_in_not_found`);
  });

  it("the account page's own client never asks for consent (a second sign-in goes straight back); a third-party app with the same sign-in still asks", async () => {
    const email = newEmail();
    const b = new AccountBrowser();
    await signInToAccount(b, email);
    expect(text(await (await b.get("/account")).text())).toContain(`Signed in as ${email}.`);
    const session = b.cookies.get("svc_oidc_session");
    expect(session).toBeTruthy();
    // Signed out of the page, signed in again: the provider's session is reused, no page at all.
    b.cookies.delete("svc_account");
    const again = await b.get("/account/sign-in");
    const authorizeAnswer = await b.get(again.headers.get("location")!);
    expect(authorizeAnswer.status).toBe(303);
    expect(authorizeAnswer.headers.get("location")).toMatch(new RegExp(`^${op()}/account/callback\\?code=`));
    await b.get(authorizeAnswer.headers.get("location")!);
    expect(text(await (await b.get("/account")).text())).toContain(`Signed in as ${email}.`);
    // The page keeps no grant of its own.
    expect(await sql(shared().env, "SELECT count(*)::int AS n FROM oidc_grants g JOIN apps a ON a.id = g.app_id JOIN accounts c ON c.id = g.account_id WHERE a.client_id = 'svc_account_page' AND c.email = $1 AND g.revoked_at IS NULL", [email])).toEqual([{ n: 0 }]);

    // A third-party app, same browser session: the consent page.
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT, scope: "openid profile", state: client.randomState(), code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256",
    });
    const login = await startLogin(url, { session: `svc_oidc_session=${session}` });
    expect(text(login.html)).toContain(`You are signed in as ${email}`);
    expect(login.html).toContain('value="allow"');
    const denied = await post(`${login.page}/consent`, login, { csrf: csrfOf(login.html), decision: "deny" });
    expect(denied.headers.get("location")).toMatch(/^https:\/\/rp\.example\/callback\?error=access_denied/);
  });
});
