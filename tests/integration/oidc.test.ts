import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import * as jose from "jose";
import * as oauth from "oauth4webapi";
import * as client from "openid-client";
import { beforeAll, describe, expect, it } from "vitest";
import { chromiumMissing, launchChromium, seriousViolations } from "../browser/browser";
import { api, createSession, createTenant, createWorkflow, keyHeader, postSession, shared, type Tenant } from "../support/api";
import { cli } from "../support/cli";
import { sql } from "../support/database";
import { useServerDatabase } from "../support/domain";
import { startServer, type RunningServer } from "../support/server";
import {
  authorize,
  bearer,
  csrfOf,
  exchange,
  expectEnvelope,
  expectTokenError,
  type Flow,
  get,
  login,
  newEmail,
  post,
  provider,
  randomIp,
  readCode,
  startCallbackListener,
  startLogin,
  text,
  tokenRequest,
  useDefaultClient,
  useOidcProvider,
} from "../support/oidc-flow";

/**
 * The OpenID Connect provider driven the way a relying party drives it:
 * openid-client and oauth4webapi (certified RP libraries) do discovery,
 * PKCE, state, nonce, the code exchange, ID token validation against the
 * JWKS, userinfo and refresh; the login and consent pages are driven over
 * HTTP like a browser without JavaScript would (cookies, forms, 303s). The
 * one-time codes are read from mail captured by a local SMTP server. This
 * file starts its own production server (tests/support/oidc-flow.ts) on the
 * shared database. Reusable identity, zkp, face sign-in and the account page
 * are in reusable-identity.test.ts.
 */
useServerDatabase();

const REDIRECT = "http://localhost:8080/callback";
const OTHER_REDIRECT = "http://127.0.0.1:9090/cb";

useOidcProvider();

let op: RunningServer;
let t: Tenant;
let config: client.Configuration;

beforeAll(async () => {
  op = provider().op;
  t = await createTenant();
  await cli(["app:redirect-uri", "--app", t.appId, "--uri", REDIRECT], shared().env);
  await cli(["app:redirect-uri", "--app", t.appId, "--uri", OTHER_REDIRECT], shared().env);
  await cli(["app:scopes", "--app", t.appId, "--scopes", "openid profile verifications doctor_license"], shared().env);
  config = await client.discovery(new URL(op.url), t.clientId, t.clientSecret, undefined, {
    execute: [client.allowInsecureRequests, client.enableNonRepudiationChecks],
  });
  useDefaultClient(config, REDIRECT);
});

// ---------------------------------------------------------------- tests

describe("discovery and keys", () => {
  it("serves the discovery document at both paths, issuer from PUBLIC_BASE_URL", async () => {
    const root = await api("GET", "/.well-known/openid-configuration", { base: op.url });
    const alias = await api("GET", "/api/.well-known/openid-configuration", { base: op.url });
    expect(root.status).toBe(200);
    expect(alias.body).toEqual(root.body);
    expect(root.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{24}$/);
    const d = root.body;
    expect(d.issuer).toBe(op.url);
    expect(d).toMatchObject({
      authorization_endpoint: `${op.url}/api/auth/oidc/authorize`,
      token_endpoint: `${op.url}/api/auth/oidc/token`,
      userinfo_endpoint: `${op.url}/api/auth/oidc/userinfo`,
      jwks_uri: `${op.url}/api/auth/oidc/jwks.json`,
      end_session_endpoint: `${op.url}/api/auth/oidc/logout`,
      credential_endpoint: `${op.url}/api/auth/oidc/credential`,
      scopes_supported: ["openid", "profile", "verifications", "zkp", "doctor_license"],
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      id_token_signing_alg_values_supported: ["RS256"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
    });
    expect(d.claims_supported).toEqual(expect.arrayContaining(["sub", "nonce", "auth_time", "at_hash", "svc_org_member_id"]));
    // The server's own view of the issuer, as openid-client checked it.
    expect(config.serverMetadata().issuer).toBe(op.url);
  });

  it("publishes RSA public keys only", async () => {
    const res = await api("GET", "/api/auth/oidc/jwks.json", { base: op.url });
    expect(res.status).toBe(200);
    expect(res.body.keys.length).toBeGreaterThanOrEqual(1);
    for (const k of res.body.keys) {
      expect(k).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig", kid: expect.any(String), n: expect.any(String), e: "AQAB" });
      for (const privatePart of ["d", "p", "q", "dp", "dq", "qi"]) expect(k).not.toHaveProperty(privatePart);
    }
    const rows = await sql(shared().env, `SELECT private_jwk_encrypted FROM oidc_signing_keys WHERE status = 'active'`);
    expect(rows[0].private_jwk_encrypted).toMatch(/^v2\.[0-9a-f]{8}\./); // sealed with ENCRYPTION_KEY, named by its key id
    expect(rows[0].private_jwk_encrypted).not.toContain('"d"');
  });

  it("legacy single sign-on endpoints answer 410 endpoint_removed", async () => {
    for (const [method, path] of [["GET", "/api/auth/sso"], ["POST", "/api/auth/sso/token"], ["GET", "/api/auth/sso/callback"]] as const) {
      const res = await api(method, path, { base: op.url });
      expect(res.status).toBe(410);
      expectEnvelope(res.body, "endpoint_removed");
      expect(res.body.data.discovery).toBe(`${op.url}/.well-known/openid-configuration`);
    }
  });
});

describe("authorization code flow with openid-client", () => {
  let flow: Flow;
  let tokens: Awaited<ReturnType<typeof exchange>>;

  beforeAll(async () => {
    flow = await authorize();
    tokens = await exchange(flow);
  });

  it("redirects back with code, the unchanged state and iss", () => {
    expect(flow.callback.origin + flow.callback.pathname).toBe(REDIRECT);
    expect(flow.callback.searchParams.get("state")).toBe(flow.state);
    expect(flow.callback.searchParams.get("iss")).toBe(op.url);
    expect(flow.callback.searchParams.get("code")).toMatch(/^ac_/);
  });

  it("issues the spec's token response and an ID token that verifies against the JWKS", async () => {
    expect(tokens.token_type.toLowerCase()).toBe("bearer");
    expect(tokens.expires_in).toBe(900);
    expect(tokens.scope).toBe("openid profile verifications");
    expect(tokens.access_token).toMatch(/^at_/);
    expect(tokens.refresh_token).toMatch(/^rt_/);
    const claims = tokens.claims()!;
    expect(claims.iss).toBe(op.url);
    expect(claims.aud).toBe(t.clientId);
    expect(claims.nonce).toBe(flow.nonce);
    expect(claims.sub).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof claims.auth_time).toBe("number");
    expect(Math.abs((claims.auth_time as number) - Date.now() / 1000)).toBeLessThan(60);
    expect(claims.at_hash).toBe(createHash("sha256").update(tokens.access_token).digest().subarray(0, 16).toString("base64url"));
    expect(claims).not.toHaveProperty("email"); // login only: no attributes in the ID token
    expect(claims).not.toHaveProperty("svc_org_member_id"); // not a member

    const jwks = jose.createRemoteJWKSet(new URL(`${op.url}/api/auth/oidc/jwks.json`));
    const verified = await jose.jwtVerify(tokens.id_token!, jwks, { issuer: op.url, audience: t.clientId, algorithms: ["RS256"] });
    expect(verified.protectedHeader.kid).toBeTruthy();
    const accounts = await sql(shared().env, `SELECT id, email FROM accounts WHERE id = $1`, [claims.sub]);
    expect(accounts[0].email).toBe(flow.email);
  });

  it("serves userinfo, licences and verifications with the access token", async () => {
    const sub = tokens.claims()!.sub;
    const info = await client.fetchUserInfo(config, tokens.access_token, sub);
    expect(info).toEqual({
      sub,
      svc_id: sub,
      preferred_username: flow.email,
      email: flow.email,
      email_verified: true,
      id_verified: false,
    });
    // Licences are released under doctor_license only (docs/oidc.md "Account reads").
    const licences = await bearer("/api/auth/oidc/licenses", tokens.access_token);
    expect(licences.status).toBe(403);
    expectEnvelope(licences.body, "insufficient_scope");
    const withLicences = await exchange(await authorize({ scope: "openid profile doctor_license" }));
    const released = await bearer("/api/auth/oidc/licenses", withLicences.access_token);
    expect(released.status).toBe(200);
    expect(released.body).toEqual({ success: true, data: { licenses: [] } });
    const verifications = await bearer("/api/auth/oidc/verifications", tokens.access_token);
    expect(verifications.body).toEqual({
      success: true,
      data: { verifications: { human_verified: false, id_verified: false, licenses: [] } },
    });
  });

  it("stores only hashes of codes and tokens", async () => {
    const dump = JSON.stringify(
      await sql(
        shared().env,
        `SELECT (SELECT json_agg(c) FROM oidc_authorization_codes c) AS codes,
                (SELECT json_agg(a) FROM oidc_access_tokens a) AS access,
                (SELECT json_agg(r) FROM oidc_refresh_tokens r) AS refresh,
                (SELECT json_agg(l) FROM account_login_codes l) AS login_codes`,
      ),
    );
    expect(dump).not.toContain(tokens.access_token);
    expect(dump).not.toContain(tokens.refresh_token);
    expect(dump).not.toContain(flow.callback.searchParams.get("code")!);
  });

  it("a second sign-in of the same email is the same account (sub)", async () => {
    const again = await exchange(await authorize({ email: flow.email }));
    expect(again.claims()!.sub).toBe(tokens.claims()!.sub);
  });
});

describe("refresh tokens", () => {
  it("rotate on every use; replaying a rotated-away token revokes the user's tokens for the client", async () => {
    const first = await exchange(await authorize());
    const second = await client.refreshTokenGrant(config, first.refresh_token!);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.claims()!.sub).toBe(first.claims()!.sub);
    expect(second.claims()!.auth_time).toBe(first.claims()!.auth_time); // the original sign-in
    expect(second.expires_in).toBe(900);
    const third = await client.refreshTokenGrant(config, second.refresh_token!);
    expect((await bearer("/api/auth/oidc/userinfo", third.access_token)).status).toBe(200);

    // A second sign-in of another person of the same client is untouched by the replay below.
    const bystander = await exchange(await authorize());

    const replay = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: first.refresh_token!,
      client_id: t.clientId,
      client_secret: t.clientSecret,
    });
    expect(replay.status).toBe(400);
    expectTokenError(replay, "invalid_grant");
    // The whole family is gone: the newest refresh token and the live access tokens.
    await expect(client.refreshTokenGrant(config, third.refresh_token!)).rejects.toThrow();
    const dead = await bearer("/api/auth/oidc/userinfo", third.access_token);
    expect(dead.status).toBe(401);
    expectEnvelope(dead.body, "invalid_token");
    expect(dead.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect((await bearer("/api/auth/oidc/userinfo", bystander.access_token)).status).toBe(200);
  });

  it("the same refresh token presented by several requests at once rotates once: one gets new tokens, the others invalid_grant", async () => {
    const first = await exchange(await authorize());
    const body = { grant_type: "refresh_token", refresh_token: first.refresh_token!, client_id: t.clientId, client_secret: t.clientSecret };
    const answers = await Promise.all([1, 2, 3, 4].map(() => tokenRequest(body)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400, 400]);
    for (const refused of answers.filter((a) => a.status === 400)) expectTokenError(refused, "invalid_grant");
    const rotated = await sql<{ n: number }>(
      shared().env,
      `SELECT count(*)::int AS n FROM oidc_refresh_tokens WHERE grant_id = (SELECT grant_id FROM oidc_refresh_tokens WHERE token_hash = $1)`,
      [createHash("sha256").update(first.refresh_token!).digest("hex")],
    );
    expect(rotated).toEqual([{ n: 2 }]); // the presented token and the one new token
  });

  it("JSON bodies (spec 4.5) and HTTP Basic work; a narrower scope without openid gets no ID token and 403 at userinfo", async () => {
    const first = await exchange(await authorize());
    const basic = `Basic ${Buffer.from(`${encodeURIComponent(t.clientId)}:${encodeURIComponent(t.clientSecret)}`).toString("base64")}`;
    const res = await tokenRequest(
      { grant_type: "refresh_token", refresh_token: first.refresh_token!, scope: "profile" },
      { json: true, headers: { authorization: basic } },
    );
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["access_token", "expires_in", "refresh_token", "scope", "token_type"]);
    expect(res.body).toMatchObject({ token_type: "Bearer", expires_in: 900, scope: "profile" });
    expect(res.headers.get("cache-control")).toBe("no-store");
    const noOpenid = await bearer("/api/auth/oidc/userinfo", res.body.access_token);
    expect(noOpenid.status).toBe(403);
    expectEnvelope(noOpenid.body, "insufficient_scope");

    const wider = await tokenRequest(
      { grant_type: "refresh_token", refresh_token: res.body.refresh_token, scope: "openid zkp" },
      { json: true, headers: { authorization: basic } },
    );
    expect(wider.status).toBe(400);
    expectTokenError(wider, "invalid_scope");
    // A refused request does not use the token up.
    const ok = await tokenRequest({ grant_type: "refresh_token", refresh_token: res.body.refresh_token }, { headers: { authorization: basic } });
    expect(ok.status).toBe(200);
    expect(ok.body.id_token).toBeTruthy();
  });

  it("a refresh token is refused for another client and after the login's 24 hours", async () => {
    const other = await createTenant();
    const first = await exchange(await authorize());
    const foreign = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: first.refresh_token!,
      client_id: other.clientId,
      client_secret: other.clientSecret,
    });
    expect(foreign.status).toBe(400);
    expectTokenError(foreign, "invalid_grant");
    await sql(shared().env, `UPDATE oidc_refresh_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, [
      createHash("sha256").update(first.refresh_token!).digest("hex"),
    ]);
    const expired = await tokenRequest({ grant_type: "refresh_token", refresh_token: first.refresh_token!, client_id: t.clientId, client_secret: t.clientSecret });
    expect(expired.status).toBe(400);
    expect(expired.body.error_description).toMatch(/expired/);
  });
});

describe("authorization codes", () => {
  it("are single use: reuse is invalid_grant and revokes the tokens the code issued", async () => {
    const flow = await authorize();
    const tokens = await exchange(flow);
    const body = {
      grant_type: "authorization_code",
      code: flow.callback.searchParams.get("code")!,
      redirect_uri: REDIRECT,
      code_verifier: flow.verifier,
      client_id: t.clientId,
      client_secret: t.clientSecret,
    };
    const reuse = await tokenRequest(body, { json: true });
    expect(reuse.status).toBe(400);
    expectTokenError(reuse, "invalid_grant");
    expect((await bearer("/api/auth/oidc/userinfo", tokens.access_token)).status).toBe(401);
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toThrow();
  });

  it("are bound to the redirect_uri, the PKCE verifier and the client, and expire", async () => {
    const flow = await authorize();
    const code = flow.callback.searchParams.get("code")!;
    const base = { grant_type: "authorization_code", code, client_id: t.clientId, client_secret: t.clientSecret };
    const wrongUri = await tokenRequest({ ...base, redirect_uri: OTHER_REDIRECT, code_verifier: flow.verifier });
    expect(wrongUri.status).toBe(400);
    expectTokenError(wrongUri, "invalid_grant");
    const wrongVerifier = await tokenRequest({ ...base, redirect_uri: REDIRECT, code_verifier: client.randomPKCECodeVerifier() });
    expectTokenError(wrongVerifier, "invalid_grant");
    const noVerifier = await tokenRequest({ ...base, redirect_uri: REDIRECT });
    expectTokenError(noVerifier, "invalid_grant");
    const other = await createTenant();
    const foreign = await tokenRequest({ ...base, client_id: other.clientId, client_secret: other.clientSecret, redirect_uri: REDIRECT, code_verifier: flow.verifier });
    expectTokenError(foreign, "invalid_grant");

    // About 2 minutes: an expired code (written so in the database) is refused.
    const rows = await sql(shared().env, `SELECT expires_at, created_at FROM oidc_authorization_codes WHERE code_hash = $1`, [
      createHash("sha256").update(code).digest("hex"),
    ]);
    expect((rows[0].expires_at - rows[0].created_at) / 1000).toBe(120);
    await sql(shared().env, `UPDATE oidc_authorization_codes SET expires_at = created_at - interval '1 second' WHERE code_hash = $1`, [
      createHash("sha256").update(code).digest("hex"),
    ]);
    const expired = await tokenRequest({ ...base, redirect_uri: REDIRECT, code_verifier: flow.verifier });
    expect(expired.status).toBe(400);
    expectTokenError(expired, "invalid_grant");
    expect(expired.body.error_description).toMatch(/expired/);
  });

  it("work with oauth4webapi, HTTP Basic and a second registered redirect URI", async () => {
    const issuer = new URL(op.url);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { [oauth.allowInsecureRequests]: true }));
    const rp: oauth.Client = { client_id: t.clientId };
    const basicConfig = await client.discovery(issuer, t.clientId, undefined, client.ClientSecretBasic(t.clientSecret), {
      execute: [client.allowInsecureRequests],
    });
    const flow = await authorize({ redirectUri: OTHER_REDIRECT, scope: "openid", cfg: basicConfig });
    const params = oauth.validateAuthResponse(as, rp, flow.callback, flow.state);
    const response = await oauth.authorizationCodeGrantRequest(as, rp, oauth.ClientSecretBasic(t.clientSecret), params, OTHER_REDIRECT, flow.verifier, {
      [oauth.allowInsecureRequests]: true,
    });
    const result = await oauth.processAuthorizationCodeResponse(as, rp, response, { expectedNonce: flow.nonce, requireIdToken: true });
    expect(result.scope).toBe("openid");
    const claims = oauth.getValidatedIdTokenClaims(result)!;
    expect(claims.nonce).toBe(flow.nonce);
    // A token with only openid may not read userinfo (scope profile).
    const info = await bearer("/api/auth/oidc/userinfo", result.access_token);
    expect(info.status).toBe(403);
    expectEnvelope(info.body, "insufficient_scope");
    expect(info.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
  });
});

describe("token endpoint errors", () => {
  it("wrong client secret: 401 invalid_client; unsupported grant; missing parameters", async () => {
    const wrong = await tokenRequest({ grant_type: "refresh_token", refresh_token: "rt_x", client_id: t.clientId, client_secret: "cs_test_wrong" });
    expect(wrong.status).toBe(401);
    expectTokenError(wrong, "invalid_client");
    const basicWrong = await tokenRequest(
      { grant_type: "refresh_token", refresh_token: "rt_x" },
      { headers: { authorization: `Basic ${Buffer.from(`${t.clientId}:nope`).toString("base64")}` } },
    );
    expect(basicWrong.status).toBe(401);
    expect(basicWrong.headers.get("www-authenticate")).toMatch(/^Basic/);
    const none = await tokenRequest({ grant_type: "refresh_token", refresh_token: "rt_x" });
    expect(none.status).toBe(401);
    expectTokenError(none, "invalid_client");
    const grant = await tokenRequest({ grant_type: "password", client_id: t.clientId, client_secret: t.clientSecret });
    expect(grant.status).toBe(400);
    expectTokenError(grant, "unsupported_grant_type");
    const missing = await tokenRequest({ client_id: t.clientId, client_secret: t.clientSecret }, { json: true });
    expectTokenError(missing, "invalid_request");
    const noCode = await tokenRequest({ grant_type: "authorization_code", client_id: t.clientId, client_secret: t.clientSecret });
    expectTokenError(noCode, "invalid_request");
    const unknown = await tokenRequest({ grant_type: "refresh_token", refresh_token: "rt_unknown", client_id: t.clientId, client_secret: t.clientSecret });
    expectTokenError(unknown, "invalid_grant");
    const wrongMethod = await api("GET", "/api/auth/oidc/token", { base: op.url });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("x-request-id")).toBeTruthy();
  });
});

describe("issue 33: repeated parameters (RFC 6749 3.1)", () => {
  it("the token endpoint refuses a parameter given twice, empty or not: 400 invalid_request", async () => {
    const credentials = `client_id=${encodeURIComponent(t.clientId)}&client_secret=${encodeURIComponent(t.clientSecret)}`;
    for (const repeated of ["refresh_token=&refresh_token=rt_x", "refresh_token=rt_x&refresh_token=", "refresh_token=rt_x&refresh_token=rt_y"]) {
      const res = await fetch(`${op.url}/api/auth/oidc/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `grant_type=refresh_token&${repeated}&${credentials}`,
      });
      expect(res.status, repeated).toBe(400);
      expectTokenError({ status: res.status, headers: res.headers, body: await res.json(), form: true }, "invalid_request");
    }
    // The client's own credentials repeated, one of them empty, are refused the same way.
    const twice = await fetch(`${op.url}/api/auth/oidc/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `grant_type=refresh_token&refresh_token=rt_x&client_secret=&${credentials}`,
    });
    expect(twice.status).toBe(400);
    expect((await twice.json()).error).toBe("invalid_request");
  });

  it("the authorization endpoint refuses redirect_uri=&redirect_uri=X: a 400 page with invalid_request, never a redirect", async () => {
    const base = `${op.url}/api/auth/oidc/authorize?client_id=${encodeURIComponent(t.clientId)}&response_type=code&scope=openid&state=st-1`;
    const uri = encodeURIComponent(REDIRECT);
    for (const repeated of [`redirect_uri=&redirect_uri=${uri}`, `redirect_uri=${uri}&redirect_uri=`, `redirect_uri=${uri}&redirect_uri=${uri}`, `redirect_uri=${uri}&state=`]) {
      const res = await get(`${base}&${repeated}`, { ip: randomIp() });
      expect(res.status, repeated).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(res.headers.get("content-type")).toContain("text/html");
      const page = await res.text();
      expect(page).toContain("invalid_request");
      expect(page).toMatch(/given more than once/);
    }
    // The same request with each parameter once is accepted (to the sign-in page).
    const once = await get(`${base}&redirect_uri=${uri}`, { ip: randomIp() });
    expect(once.status).toBe(303);
    expect(new URL(once.headers.get("location")!, op.url).searchParams.get("error")).toBeNull();
  });
});

describe("authorize request validation", () => {
  const authUrl = (params: Record<string, string>) => {
    const u = new URL(`${op.url}/api/auth/oidc/authorize`);
    for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
    return u.href;
  };
  const valid = () => ({ client_id: t.clientId, redirect_uri: REDIRECT, response_type: "code", scope: "openid", state: "st-1" });

  it("never redirects to a redirect URI that is not registered exactly", async () => {
    for (const redirect of [
      "http://localhost:8080/callback/",
      "http://localhost:8081/callback",
      "https://localhost:8080/callback",
      "http://localhost:8080/callback?x=1",
      "http://evil.example/callback",
    ]) {
      const res = await get(authUrl({ ...valid(), redirect_uri: redirect }), { ip: randomIp() });
      expect(res.status, redirect).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(await res.text()).toContain("invalid_redirect_uri");
    }
    const unknownClient = await get(authUrl({ ...valid(), client_id: "cli_unknown" }), { ip: randomIp() });
    expect(unknownClient.status).toBe(401);
    expect(unknownClient.headers.get("location")).toBeNull();
    expect(unknownClient.headers.get("x-frame-options")).toBe("DENY");
  });

  it.each([
    ["missing openid", { scope: "profile" }, "invalid_scope"],
    ["a scope not enabled on the app", { scope: "openid zkp" }, "invalid_scope"],
    ["an unknown scope", { scope: "openid email" }, "invalid_scope"],
    ["response_type token", { response_type: "token" }, "unsupported_response_type"],
    ["plain PKCE", { code_challenge: "a".repeat(43), code_challenge_method: "plain" }, "invalid_request"],
    ["prompt=none (no provider session)", { prompt: "none" }, "login_required"],
  ])("%s: redirected back with the error and the state", async (_, change, error) => {
    const res = await get(authUrl({ ...valid(), ...change }), { ip: randomIp() });
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get("location")!);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get("error")).toBe(error);
    expect(back.searchParams.get("state")).toBe("st-1");
    expect(back.searchParams.get("iss")).toBe(op.url);
    expect(back.searchParams.has("code")).toBe(false);
  });

  it("state is required", async () => {
    const { state: _state, ...noState } = valid();
    const res = await get(authUrl(noState), { ip: randomIp() });
    const back = new URL(res.headers.get("location")!);
    expect(back.searchParams.get("error")).toBe("invalid_request");
    expect(back.searchParams.get("error_description")).toMatch(/state/);
  });

  it("an inactive app: unauthorized_client", async () => {
    const other = await createTenant();
    await cli(["app:redirect-uri", "--app", other.appId, "--uri", REDIRECT], shared().env);
    await sql(shared().env, `UPDATE apps SET is_active = false WHERE id = $1`, [other.appId]);
    const res = await get(authUrl({ ...valid(), client_id: other.clientId }), { ip: randomIp() });
    const back = new URL(res.headers.get("location")!);
    expect(back.searchParams.get("error")).toBe("unauthorized_client");
    expect(back.searchParams.get("state")).toBe("st-1");
  });
});

describe("login and consent pages", () => {
  const url = async () =>
    client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: "openid profile",
      state: "s-pages",
      nonce: "n",
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: "S256",
    });

  it("are accessible plain HTML forms with a CSRF token", async () => {
    const b = await startLogin(await url());
    expect(b.html).toMatch(/<html lang="en"/);
    expect(b.html).toMatch(/<label for="email"[^>]*>Email address<\/label>/);
    expect(b.html).toMatch(/<input[^>]*id="email"[^>]*type="email"/);
    expect(b.html).toMatch(/autofocus/i);
    expect(b.html).toMatch(/<form[^>]*action="\/oidc\/interaction\/[0-9a-f-]+\/email"[^>]*method="post"/);
    expect(text(b.html)).toContain("Sign in");
    expect(csrfOf(b.html).length).toBeGreaterThan(20);
  });

  it("refuse a form without the CSRF token, a browser without the cookie, and a framed page", async () => {
    const b = await startLogin(await url());
    const email = newEmail();
    const noCsrf = await post(`${b.page}/email`, b, { email });
    expect(noCsrf.headers.get("location")).toBe(`${b.page}?m=csrf`);
    const noCookie = await post(`${b.page}/email`, { ip: b.ip }, { email, csrf: csrfOf(b.html) });
    expect(noCookie.headers.get("location")).toBe(b.page);
    expect(provider().smtp.messages.some((m) => m.to.includes(email))).toBe(false);
    const otherBrowser = await get(b.page, { ip: b.ip });
    expect(text(await otherBrowser.text())).toContain("This sign-in request is no longer valid");
    const framed = await fetch(`${b.page}/email`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: b.cookie, "sec-fetch-dest": "iframe", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrf: csrfOf(b.html), email }).toString(),
    });
    expect(framed.status).toBe(403);
    const crossOrigin = await fetch(`${b.page}/email`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: b.cookie, origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrf: csrfOf(b.html), email }).toString(),
    });
    expect(crossOrigin.status).toBe(403);
  });

  it("one-time codes: wrong codes count down, five lock the code, a new code works once", async () => {
    const b = await startLogin(await url());
    const email = newEmail();
    const csrf = csrfOf(b.html);
    await post(`${b.page}/email`, b, { csrf, email });
    const first = await readCode(email);
    const wrong = first === "000000" ? "111111" : "000000";
    for (let left = 4; left >= 1; left--) {
      const res = await post(`${b.page}/code`, b, { csrf, code: wrong });
      expect(res.headers.get("location")).toBe(`${b.page}?m=otp_invalid`);
      const html = await (await get(res.headers.get("location")!, b)).text();
      expect(text(html)).toContain(`${left} ${left === 1 ? "attempt" : "attempts"} left`);
      expect(html).toMatch(/aria-invalid="true"/);
    }
    const locked = await post(`${b.page}/code`, b, { csrf, code: wrong });
    expect(locked.headers.get("location")).toBe(`${b.page}?m=otp_locked`);
    // Even the right code is refused now.
    expect((await post(`${b.page}/code`, b, { csrf, code: first })).headers.get("location")).toBe(`${b.page}?m=otp_locked`);
    const resent = await post(`${b.page}/email`, b, { csrf, resend: "1" });
    expect(resent.headers.get("location")).toBe(`${b.page}?m=code_sent`);
    const second = await readCode(email);
    const ok = await post(`${b.page}/code`, b, { csrf, code: second });
    expect(ok.headers.get("location")).toBe(b.page);
    expect(text(await (await get(b.page, b)).text())).toContain("Allow");
    const rows = await sql(shared().env, `SELECT code_hash, consumed_at FROM account_login_codes WHERE email = $1`, [email]);
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.consumed_at)).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(second);
  });

  it("an expired one-time code is refused", async () => {
    const b = await startLogin(await url());
    const email = newEmail();
    await post(`${b.page}/email`, b, { csrf: csrfOf(b.html), email });
    const code = await readCode(email);
    const [row] = await sql(shared().env, `SELECT expires_at, created_at FROM account_login_codes WHERE email = $1`, [email]);
    expect((row.expires_at - row.created_at) / 1000).toBe(600);
    await sql(shared().env, `UPDATE account_login_codes SET expires_at = created_at WHERE email = $1`, [email]);
    const res = await post(`${b.page}/code`, b, { csrf: csrfOf(b.html), code });
    expect(res.headers.get("location")).toBe(`${b.page}?m=otp_expired`);
  });

  it("limits the codes sent for one address", async () => {
    const email = newEmail();
    let last: Response | undefined;
    for (let i = 0; i < 6; i++) {
      const b = await startLogin(await url());
      last = await post(`${b.page}/email`, b, { csrf: csrfOf(b.html), email });
      if (i < 5) expect(last.headers.get("location")).toBe(b.page);
    }
    expect(last!.headers.get("location")).toMatch(/\?m=too_many_codes$/);
  });

  it("deny sends access_denied with the state; the request is then used up", async () => {
    const flow = await authorize({ decision: "deny" });
    expect(flow.callback.searchParams.get("error")).toBe("access_denied");
    expect(flow.callback.searchParams.get("state")).toBe(flow.state);
    expect(flow.callback.searchParams.has("code")).toBe(false);
  });

  it("cancel on the login step sends access_denied too", async () => {
    const b = await startLogin(await url());
    const res = await post(`${b.page}/consent`, b, { csrf: csrfOf(b.html), decision: "deny" });
    const back = new URL(res.headers.get("location")!);
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("state")).toBe("s-pages");
    // A second use of the request leads nowhere.
    const again = await post(`${b.page}/consent`, b, { csrf: csrfOf(b.html), decision: "allow" });
    expect(again.headers.get("location")).toBe(b.page);
  });

  it("the shared production server, without SMTP, says mail is not configured and offers face sign-in only", async () => {
    const u = new URL(await url());
    const res = await get(`${shared().url}/api/auth/oidc/authorize${u.search}`, { ip: randomIp() });
    expect(res.status).toBe(303);
    const page = res.headers.get("location")!;
    expect(page.startsWith(shared().url)).toBe(true);
    const cookie = res.headers.get("set-cookie")!.split(";")[0]!;
    const browser = { ip: "1", cookie };
    const html = await (await get(page, browser)).text();
    expect(text(html)).toContain("no mail server configured");
    expect(text(html)).not.toContain("Send code");
    expect(html).toMatch(/<button[^>]*value="face"[^>]*name="method"[^>]*>Sign in with my face</);
    const sent = await post(`${page}/email`, browser, { csrf: csrfOf(html), email: newEmail() });
    expect(sent.headers.get("location")).toBe(`${page}?m=mail_not_configured`);
    const face = await post(`${page}/email`, browser, { csrf: csrfOf(html), email: newEmail(), method: "face" });
    expect(face.headers.get("location")).toBe(page);
    const facePage = await (await get(page, browser)).text();
    expect(text(facePage)).toContain("Sign in with your face");
    expect(text(facePage)).not.toContain("Email me a code instead");
    // The production default asks for any of the three movements, two per scan, never the same twice in a row.
    const challenge = await fetch(`${page}/face/challenge`, { method: "POST", headers: { cookie, "x-csrf-token": csrfOf(facePage) } });
    expect(challenge.status).toBe(201);
    const { actions, frames } = ((await challenge.json()) as any).data;
    expect(actions).toHaveLength(2);
    expect(["turn_left", "turn_right", "blink"]).toEqual(expect.arrayContaining(actions));
    expect(actions[0]).not.toBe(actions[1]);
    expect(frames).toEqual({ min: 3, max: 8, recommended: 5 });
  });
});

describe("account reads", () => {
  it("401 without or with a bad token; 403 without the verifications scope", async () => {
    const none = await api("GET", "/api/auth/oidc/userinfo", { base: op.url });
    expect(none.status).toBe(401);
    expectEnvelope(none.body, "invalid_token");
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await bearer("/api/auth/oidc/verifications", "at_nope")).status).toBe(401);
    const tokens = await exchange(await authorize({ scope: "openid profile" }));
    const v = await bearer("/api/auth/oidc/verifications", tokens.access_token);
    expect(v.status).toBe(403);
    expectEnvelope(v.body, "insufficient_scope");
  });

  it("report verifications from approved sessions bound with svc_access_token, never raw data", async () => {
    const { recordCheckResult } = await import("@/lib/sessions/record-check");
    const { completeSession } = await import("@/lib/sessions/complete-session");
    const tokens = await exchange(await authorize({ scope: "openid profile verifications doctor_license" }));
    const sub = tokens.claims()!.sub;
    const wf = await createWorkflow(t, ["id_verification"]);
    const s = await createSession(t, { workflow_id: wf, svc_access_token: tokens.access_token });
    // The licence step's result is recorded directly here (tests/integration/licences.test.ts runs the real lookup).
    await sql(shared().env, `UPDATE sessions SET features = array_append(features, 'credential') WHERE id = $1`, [s.session_id]);
    await recordCheckResult({ sessionId: s.session_id, type: "id_verification", status: "passed", data: { reused: false, document_type: "driving_licence" } });
    // What the document step keeps for the decision: the fields read (they become the account's document proof).
    const { saveJsonArtifact } = await import("@/lib/artifacts/artifacts");
    await saveJsonArtifact(s.session_id, "document_fields", {
      document_type: "driving_licence", full_name: "JORDAN SAMPLE", date_of_birth: "1990-01-01", document_number: "D1234567", expiry_date: "2099-01-01",
    });
    await saveJsonArtifact(s.session_id, "licence_record", {
      licence: {
        license_number: "A-123", license_type: "MD", holder: { first: "JORDAN", last: "SAMPLE", full: null },
        status: "active", registry_status: "Clear", expires_on: "2099-12-31", state: "CA", issuing_authority: "Medical Board",
      },
      lookup: { provider_code: "none", credential_code: "none", inputs: { license_number: "A-123" } },
    });
    await recordCheckResult({
      sessionId: s.session_id,
      type: "credential",
      status: "passed",
      data: { match: true, license: { status: "active", expires_at: "2099-12-31T23:59:59.999Z" } },
    });
    await completeSession(s.session_id);
    const decision = await api("GET", `/api/v2/session/${s.session_id}/decision`, { headers: keyHeader(t) });
    expect(decision.body.data).toMatchObject({ status: "APPROVED", svc_id: sub });

    const info = await client.fetchUserInfo(config, tokens.access_token, sub);
    expect(info.id_verified).toBe(true);
    const v = await bearer("/api/auth/oidc/verifications", tokens.access_token);
    expect(v.body.data.verifications).toEqual({
      human_verified: true, // no liveness check: falls back to id_verified
      id_verified: true,
      licenses: [{ license_type: "MD", verified: true, verified_from: expect.any(String), expire_at: "2099-12-31T23:59:59.999Z" }],
    });
    const l = await bearer("/api/auth/oidc/licenses", tokens.access_token);
    expect(l.body.data.licenses).toEqual([{ type: "MD", number: "A-123", status: "active", expires_on: "2099-12-31", issuer: "Medical Board" }]);
    const userinfo = await bearer("/api/auth/oidc/userinfo", tokens.access_token);
    // Spec 2.10: userinfo releases the name as verified (scope profile); never the date of birth or the document number.
    expect(userinfo.body.name).toBe("JORDAN SAMPLE");
    for (const res of [v, l, userinfo]) {
      expect(res.text).not.toContain("1990-01-01");
      expect(res.text).not.toContain("D1234567");
    }
    for (const res of [v, l]) expect(res.text).not.toContain("JORDAN");
  });
});

describe("sessions bound to an account (svc_access_token)", () => {
  it("binds the session and fills svc_id; tokens of another app or revoked ones are 401", async () => {
    const tokens = await exchange(await authorize());
    const sub = tokens.claims()!.sub;
    const wf = await createWorkflow(t, ["liveness"]);
    const s = await createSession(t, { workflow_id: wf, svc_access_token: tokens.access_token });
    const summary = await api("GET", `/api/v2/session/${s.session_id}`, { headers: keyHeader(t) });
    expect(summary.body.data.svc_id).toBe(sub);
    const decision = await api("GET", `/api/v2/session/${s.session_id}/decision`, { headers: keyHeader(t) });
    expect(decision.body.data.svc_id).toBe(sub);

    const other = await createTenant();
    const otherWf = await createWorkflow(other, ["liveness"]);
    const foreign = await postSession(other, { workflow_id: otherWf, svc_access_token: tokens.access_token });
    expect(foreign.status).toBe(401);
    expect(foreign.body.error.code).toBe("invalid_token");

    const unbound = await createSession(t, { workflow_id: wf });
    expect((await api("GET", `/api/v2/session/${unbound.session_id}`, { headers: keyHeader(t) })).body.data.svc_id).toBeNull();
  });
});

describe("organization members", () => {
  it("the ID token carries svc_org_member_id for an active member of the app's organization", async () => {
    const first = await exchange(await authorize());
    const sub = first.claims()!.sub;
    const memberId = `vmem_${randomBytes(12).toString("hex")}`;
    await sql(
      shared().env,
      `INSERT INTO members (member_id, organization_id, email, role, status, svc_id, updated_at) VALUES ($1, $2, $3, 'member', 'active', $4, now())`,
      [memberId, t.organizationId, `${memberId}@example.com`, sub],
    );
    const refreshed = await client.refreshTokenGrant(config, first.refresh_token!);
    expect(refreshed.claims()!.svc_org_member_id).toBe(memberId);
    await sql(shared().env, `UPDATE members SET status = 'deactivated' WHERE member_id = $1`, [memberId]);
    const after = await client.refreshTokenGrant(config, refreshed.refresh_token!);
    expect(after.claims()!).not.toHaveProperty("svc_org_member_id");
  });

  it("bind, resolve, deactivate (sign-ins end), reactivate and remove members (spec 3.2, 4.6), by member_id, email or svc_id", async () => {
    const sdk = (method: string, path: string, json?: unknown, tenant: Tenant = t) =>
      api(method, `/api/sdk/members${path}`, { base: op.url, headers: { "X-Client-Id": tenant.clientId, "X-Client-Secret": tenant.clientSecret }, json });
    const flow = await authorize();
    const tokens = await exchange(flow);
    const svcId = tokens.claims()!.sub;

    // Bind: only an account that signed in to one of this organization's apps.
    expect((await sdk("POST", "/bind", { svcId: "00000000-0000-4000-8000-000000000000", email: "x@example.com" })).status).toBe(404);
    const bad = await sdk("POST", "/bind", { svcId: "nope", email: "not-an-email" });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.data.errors)).toEqual(expect.arrayContaining(["svcId", "email"]));
    const bound = await sdk("POST", "/bind", { svcId, email: flow.email.toUpperCase(), firstName: "Ada", lastName: "Lovelace" });
    expect(bound.status).toBe(200);
    const member = bound.body.data.member;
    expect(member).toMatchObject({
      member_id: expect.stringMatching(/^vmem_[0-9a-f]{24}$/), email: flow.email, first_name: "Ada", last_name: "Lovelace", role: "member", status: "active", active: true, svc_id: svcId,
    });
    expect((await sdk("POST", "/bind", { svc_id: svcId, email: flow.email })).body.data.member).toEqual(member); // idempotent
    const signedIn = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(signedIn.claims()!.svc_org_member_id).toBe(member.member_id);
    expect((await sdk("GET", "")).body.data.members).toContainEqual(member);

    // Resolve: any role, by svc_id or email; never another organization's people.
    expect((await sdk("POST", "/resolve", { svc_id: svcId })).body.data).toEqual({ found: true, member });
    expect((await sdk("POST", "/resolve", { email: flow.email.toUpperCase() })).body.data).toEqual({ found: true, member });
    expect((await sdk("POST", "/resolve", { email: "nobody@example.com" })).body.data).toEqual({ found: false, member: null });
    const neither = await sdk("POST", "/resolve", {});
    expect(neither.status).toBe(400);
    expect(neither.body.error.code).toBe("missing_identifier");
    const other = await createTenant();
    expect((await sdk("POST", "/resolve", { svc_id: svcId }, other)).body.data).toEqual({ found: false, member: null });
    expect((await sdk("PATCH", `/${member.member_id}/deactivate`, undefined, other)).status).toBe(404);

    // Deactivate (by email): not a seat, and the account's sign-ins to the organization's apps end at once.
    const off = await sdk("PATCH", `/${encodeURIComponent(flow.email)}/deactivate`);
    expect(off.body.data.member).toMatchObject({ member_id: member.member_id, status: "deactivated", active: false, svc_id: svcId });
    await expect(client.refreshTokenGrant(config, signedIn.refresh_token!)).rejects.toThrow();
    expect((await sdk("PATCH", `/${member.member_id}/deactivate`)).body.data.member.status).toBe("deactivated"); // again: unchanged
    // Reactivate (by svc_id) while the account exists: active.
    expect((await sdk("PATCH", `/${svcId}/reactivate`)).body.data.member).toMatchObject({ status: "active", svc_id: svcId });
    // DELETE without permanent = deactivate.
    expect((await sdk("DELETE", `/${member.member_id}`)).body.data.member).toMatchObject({ status: "deactivated" });
    // The account is deleted meanwhile: reactivating invites the member again, unbound.
    const { deleteAccount } = await import("@/lib/account-page/account-lifecycle");
    expect(await deleteAccount(svcId)).toBe(true);
    expect((await sdk("PATCH", `/${member.member_id}/reactivate`)).body.data.member).toMatchObject({ status: "invited", svc_id: null, active: false });
    // Permanent removal, idempotent; the member is then unknown.
    expect((await sdk("DELETE", `/${member.member_id}?permanent=true`)).body.data).toEqual({ member: null, removed: true });
    expect((await sdk("DELETE", `/${member.member_id}?permanent=true`)).body.data).toEqual({ member: null, already_removed: true });
    expect((await sdk("DELETE", `/${member.member_id}?permanent=maybe`)).status).toBe(400);
    for (const action of ["deactivate", "reactivate"]) {
      const gone = await sdk("PATCH", `/${member.member_id}/${action}`);
      expect(gone.status).toBe(404);
      expect(gone.body.error.code).toBe("not_found");
    }
  });
});

describe("logout", () => {
  it("revokes the user's tokens for the client and redirects with the state", async () => {
    const tokens = await exchange(await authorize());
    const url = client.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: REDIRECT,
      state: "bye-1",
    });
    const res = await get(url.href, { ip: randomIp() });
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get("location")!);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get("state")).toBe("bye-1");
    expect((await bearer("/api/auth/oidc/userinfo", tokens.access_token)).status).toBe(401);
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toThrow();
  });

  it("accepts an expired id_token_hint (signature still checked); refuses a forged one and unregistered URIs", async () => {
    const tokens = await exchange(await authorize());
    const sub = tokens.claims()!.sub;
    const { setClock } = await import("@/lib/clock");
    const { signIdToken } = await import("@/lib/oidc/id-token");
    setClock({ now: () => new Date(Date.now() - 3 * 3600_000) });
    let expired: string;
    try {
      expired = await signIdToken({ kid: null, accountId: sub, clientId: t.clientId, nonce: null, authTime: new Date(), accessToken: "x", memberId: null });
    } finally {
      setClock(null);
    }
    expect(jose.decodeJwt(expired).exp! * 1000).toBeLessThan(Date.now());

    const badUri = await get(client.buildEndSessionUrl(config, { id_token_hint: expired, post_logout_redirect_uri: "http://localhost:8080/other" }).href, { ip: randomIp() });
    expect(badUri.status).toBe(400);
    expect(badUri.headers.get("location")).toBeNull();
    expect((await bearer("/api/auth/oidc/userinfo", tokens.access_token)).status).toBe(200);

    const { privateKey } = await jose.generateKeyPair("RS256");
    const forged = await new jose.SignJWT({ sub }).setProtectedHeader({ alg: "RS256", kid: jose.decodeProtectedHeader(expired).kid! })
      .setIssuer(op.url).setAudience(t.clientId).setIssuedAt().setExpirationTime("1h").sign(privateKey);
    const forgedRes = await get(client.buildEndSessionUrl(config, { id_token_hint: forged }).href, { ip: randomIp() });
    expect(forgedRes.status).toBe(400);
    expect((await bearer("/api/auth/oidc/userinfo", tokens.access_token)).status).toBe(200);

    const ok = await get(client.buildEndSessionUrl(config, { id_token_hint: expired }).href, { ip: randomIp() });
    expect(ok.status).toBe(200);
    expect(text(await ok.text())).toContain("You are signed out");
    expect((await bearer("/api/auth/oidc/userinfo", tokens.access_token)).status).toBe(401);
  });
});

describe("the two adapters and housekeeping", () => {
  it("the Next route handlers answer exactly as the lean node:http lane of the production server", async () => {
    const tokens = await exchange(await authorize());
    // Over HTTP, the production server serves token and userinfo from lib/server/lean-routes.ts (no Next headers).
    const lean = await fetch(`${op.url}/api/auth/oidc/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(lean.headers.get("vary")).toBeNull();
    // The same handlers through the Web Request -> Response adapter Next calls.
    const { userinfoRoute, tokenRoute } = await import("@/lib/server/oidc-routes");
    const viaNext = await userinfoRoute(new Request(`${op.url}/api/auth/oidc/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } }), {});
    expect(viaNext.status).toBe(200);
    expect(await viaNext.json()).toEqual(await lean.json());
    const refreshed = await tokenRoute(
      new Request(`${op.url}/api/auth/oidc/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: tokens.refresh_token!, client_id: t.clientId, client_secret: t.clientSecret }),
      }),
      {},
    );
    expect(refreshed.status).toBe(200);
    expect(refreshed.headers.get("x-request-id")).toMatch(/^req_/);
    const body = await refreshed.json();
    expect(body.refresh_token).toMatch(/^rt_/);
    expect((await bearer("/api/auth/oidc/userinfo", body.access_token)).status).toBe(200);
  });

  it("forgets expired sign-in requests, codes and tokens, and grants a day after the login ended", async () => {
    const flow = await authorize();
    const tokens = await exchange(flow);
    const env = shared().env;
    const [{ grant_id }] = await sql(env, `SELECT grant_id FROM oidc_access_tokens WHERE token_hash = $1`, [
      createHash("sha256").update(tokens.access_token).digest("hex"),
    ]);
    // This sign-in's rows age by 49 hours (their dates move back, as a clock 49 hours ahead would see them;
    // the rows of tests running meanwhile are left alone), and a server's periodic job purges them.
    await sql(env, `UPDATE oidc_grants SET expires_at = expires_at - interval '49 hours' WHERE id = $1`, [grant_id]);
    await sql(env, `UPDATE oidc_access_tokens SET expires_at = expires_at - interval '49 hours' WHERE grant_id = $1`, [grant_id]);
    await sql(env, `UPDATE oidc_authorization_codes SET expires_at = expires_at - interval '49 hours' WHERE grant_id = $1`, [grant_id]);
    await sql(env, `UPDATE oidc_interactions SET expires_at = expires_at - interval '49 hours' WHERE state = $1`, [flow.state]);
    const fresh = await exchange(await authorize()); // a live sign-in, which must survive
    const left = async () =>
      (
        await sql(
          env,
          `SELECT (SELECT count(*) FROM oidc_grants WHERE id = $1)::int AS grants,
                  (SELECT count(*) FROM oidc_refresh_tokens WHERE grant_id = $1)::int AS refresh,
                  (SELECT count(*) FROM oidc_access_tokens WHERE grant_id = $1)::int AS access,
                  (SELECT count(*) FROM oidc_authorization_codes WHERE grant_id = $1)::int AS codes,
                  (SELECT count(*) FROM oidc_interactions WHERE state = $2)::int AS interactions`,
          [grant_id, flow.state],
        )
      )[0];
    expect(await left()).toMatchObject({ grants: 1, access: 1 });
    // A server as deployed (production) that runs jobs: the OIDC purge, a pg-boss schedule every 10 minutes, runs
    // once when it starts. (No SMTP: it takes no mail job from the servers of other files on this database.)
    const sweeping = await startServer({ ...env, JOB_WORKER: "on" });
    try {
      const deadline = Date.now() + 60_000;
      let rows = await left();
      while (Date.now() < deadline && Object.values(rows).some((n) => Number(n) > 0)) {
        await new Promise((r) => setTimeout(r, 250));
        rows = await left();
      }
      expect(rows).toEqual({ grants: 0, refresh: 0, access: 0, codes: 0, interactions: 0 });
    } finally {
      await sweeping.stop();
    }
    expect((await bearer("/api/auth/oidc/userinfo", fresh.access_token)).status).toBe(200);
  }, 120_000);
});

describe("signing key rotation (CLI)", () => {
  it("the pre-published next key signs; the old key stays published and old ID tokens still verify", async () => {
    const before = await exchange(await authorize());
    const oldKid = jose.decodeProtectedHeader(before.id_token!).kid!;
    const published = (await api("GET", "/api/auth/oidc/jwks.json", { base: op.url })).body.keys.map((k: { kid: string }) => k.kid);
    const rotated = await cli(["oidc:rotate-key"], shared().env);
    expect(rotated.kid).not.toBe(oldKid);
    // The new signing key was in the JWKS before it signed anything (RPs' cached key sets know it).
    expect(published).toContain(rotated.kid);
    expect(rotated.retired.map((r: { kid: string }) => r.kid)).toContain(oldKid);
    // Published until every ID token and every 24-hour predicate credential the old key signed has expired.
    const publishedFor = Date.parse(rotated.retired.find((r: { kid: string }) => r.kid === oldKid).published_until) - Date.now();
    expect(publishedFor).toBeGreaterThan(24 * 3600_000);
    expect(publishedFor).toBeLessThanOrEqual((24 * 3600 + 300) * 1000);
    const jwks = (await api("GET", "/api/auth/oidc/jwks.json", { base: op.url })).body;
    expect(jwks.keys.map((k: { kid: string }) => k.kid)).toEqual(expect.arrayContaining([rotated.kid, oldKid, rotated.next]));

    // openid-client (non-repudiation checks on) verifies the new token with its cached JWKS.
    const after = await client.refreshTokenGrant(config, before.refresh_token!);
    expect(jose.decodeProtectedHeader(after.id_token!).kid).toBe(rotated.kid);
    const remote = jose.createRemoteJWKSet(new URL(`${op.url}/api/auth/oidc/jwks.json`));
    for (const token of [before.id_token!, after.id_token!]) {
      await jose.jwtVerify(token, remote, { issuer: op.url, audience: t.clientId });
    }
    const keys = await cli(["oidc:keys"], shared().env);
    const old = keys.keys.find((k: { kid: string }) => k.kid === oldKid);
    expect(old).toMatchObject({ status: "retired", published: true });
    const [row] = await sql(shared().env, `SELECT private_jwk_encrypted FROM oidc_signing_keys WHERE kid = $1`, [oldKid]);
    expect(row.private_jwk_encrypted).toBeNull(); // the retired private key is destroyed
  });
});

describe("next-auth 4 as the relying party", () => {
  it("signs in through the provider (PKCE, state, nonce, ID token checked by next-auth's openid-client) and gets a session", async () => {
    const { default: NextAuth } = await import("next-auth");
    // A Next.js pages-router API route is all next-auth's handler needs: req.query/body/cookies and res.status/send/json.
    let base = "";
    const handler = NextAuth({
      secret: randomBytes(32).toString("hex"),
      session: { strategy: "jwt" },
      providers: [
        {
          id: "svc",
          name: "Identity Verification",
          type: "oauth",
          wellKnown: `${op.url}/.well-known/openid-configuration`,
          clientId: t.clientId,
          clientSecret: t.clientSecret,
          authorization: { params: { scope: "openid profile" } },
          idToken: true,
          checks: ["pkce", "state", "nonce"],
          profile: (claims: { sub: string }) => ({ id: claims.sub }),
        },
      ],
      callbacks: { session: ({ session, token }) => ({ ...session, sub: token.sub }) },
    });
    const rp = http.createServer(async (req, res) => {
      const u = new URL(req.url!, base);
      let raw = "";
      for await (const chunk of req) raw += chunk;
      const cookies = Object.fromEntries((req.headers.cookie ?? "").split("; ").filter(Boolean).map((c) => [c.slice(0, c.indexOf("=")), decodeURIComponent(c.slice(c.indexOf("=") + 1))]));
      Object.assign(req, {
        query: { ...Object.fromEntries(u.searchParams), nextauth: u.pathname.replace(/^\/api\/auth\/?/, "").split("/").filter(Boolean) },
        body: raw ? Object.fromEntries(new URLSearchParams(raw)) : {},
        cookies,
      });
      Object.assign(res, {
        status: (code: number) => ((res.statusCode = code), res),
        json: (value: unknown) => res.setHeader("content-type", "application/json").end(JSON.stringify(value)),
        send: (value: unknown) => res.end(typeof value === "string" ? value : JSON.stringify(value)),
      });
      await (handler as unknown as (q: http.IncomingMessage, s: http.ServerResponse) => Promise<void>)(req, res);
    });
    await new Promise<void>((resolve) => rp.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(rp.address() as AddressInfo).port}`;
    process.env.NEXTAUTH_URL = base;
    try {
      await cli(["app:redirect-uri", "--app", t.appId, "--uri", `${base}/api/auth/callback/svc`], shared().env);
      const jar = new Map<string, string>();
      const rpFetch = async (path: string, init: RequestInit = {}) => {
        const res = await fetch(`${base}${path}`, {
          ...init,
          redirect: "manual",
          headers: { ...(init.headers as Record<string, string>), cookie: [...jar].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; ") },
        });
        for (const c of res.headers.getSetCookie()) {
          const [pair] = c.split(";");
          const eq = pair!.indexOf("=");
          jar.set(pair!.slice(0, eq), decodeURIComponent(pair!.slice(eq + 1)));
        }
        return res;
      };
      const { csrfToken } = (await (await rpFetch("/api/auth/csrf")).json()) as { csrfToken: string };
      const signin = await rpFetch("/api/auth/signin/svc", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, callbackUrl: `${base}/done` }).toString(),
      });
      expect(signin.status).toBe(302);
      const authorizeUrl = new URL(signin.headers.get("location")!);
      expect(authorizeUrl.origin + authorizeUrl.pathname).toBe(`${op.url}/api/auth/oidc/authorize`);
      expect(authorizeUrl.searchParams.get("code_challenge_method")).toBe("S256");
      expect(authorizeUrl.searchParams.get("nonce")).toBeTruthy();

      const email = newEmail();
      const b = await startLogin(authorizeUrl);
      const consent = await login(b, email);
      const done = await post(`${b.page}/consent`, b, { csrf: csrfOf(consent), decision: "allow" });
      const callback = new URL(done.headers.get("location")!);
      expect(callback.pathname).toBe("/api/auth/callback/svc");

      const back = await rpFetch(`${callback.pathname}${callback.search}`);
      expect(back.status, await back.clone().text()).toBe(302);
      expect(back.headers.get("location")).toBe(`${base}/done`);
      const session = (await (await rpFetch("/api/auth/session")).json()) as { sub?: string };
      const [account] = await sql(shared().env, `SELECT id FROM accounts WHERE email = $1`, [email]);
      expect(session.sub).toBe(account.id);
    } finally {
      delete process.env.NEXTAUTH_URL;
      await new Promise<void>((resolve) => rp.close(() => resolve()));
    }
  });
});

describe.skipIf(chromiumMissing)("sign-in in a real browser (Chromium), with axe-core", () => {
  it("email, code, consent by keyboard; no serious accessibility violation; the RP gets its tokens", async () => {
    const cleanup: Array<() => Promise<void>> = [];
    const browser = await launchChromium("none");
    try {
      const context = await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": randomIp() } });
      const page = await context.newPage();
      const rp = await startCallbackListener();
      const redirectUri = rp.redirectUri;
      await cli(["app:redirect-uri", "--app", t.appId, "--uri", redirectUri], shared().env);
      cleanup.push(rp.close);
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: "openid profile verifications",
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
        state,
        nonce,
      });
      const email = newEmail();
      const violations = (view: string) => seriousViolations(page, view);
      const found: string[] = [];

      await page.goto(url.href);
      await page.waitForSelector("#email");
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("email");
      found.push(...(await violations("email")));
      await page.keyboard.type(email);
      await page.keyboard.press("Enter");
      await page.waitForSelector("#code");
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("code");
      found.push(...(await violations("code")));
      await page.keyboard.type(await readCode(email));
      await page.keyboard.press("Enter");
      await page.getByRole("button", { name: "Allow" }).waitFor();
      expect(await page.title()).toBe("Allow sign-in");
      found.push(...(await violations("consent")));
      await page.getByRole("button", { name: "Allow" }).focus();
      await page.keyboard.press("Enter");
      await page.waitForURL((u) => u.href.startsWith(`${redirectUri}?`), { timeout: 20_000 });
      expect(rp.callback?.searchParams.get("code")).toMatch(/^ac_/);
      expect(found).toEqual([]);

      const tokens = await client.authorizationCodeGrant(config, rp.callback!, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
      const info = await client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
      expect(info.email).toBe(email);
    } finally {
      await browser.close();
      for (const fn of cleanup) await fn();
    }
  });
});
