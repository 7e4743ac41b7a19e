import * as jose from "jose";
import * as client from "openid-client";
import { beforeAll, describe, expect, it } from "vitest";
import { api, createTenant, createWorkflow, keyHeader, postSession, type ApiResponse, type Tenant } from "../support/api";
import { useServerDatabase } from "../support/domain";
import { authorize, bearer, exchange, expectEnvelope, expectTokenError, get, provider, randomIp, tokenRequest, useOidcProvider, type Flow } from "../support/oidc-flow";
import { identifyingTexts, seedTenantResources, type TenantResources } from "../support/tenant-resources";

/**
 * Tenant isolation of the OpenID Connect provider (issue 19, last part): one
 * person signs in to two relying parties, the clients of two organizations'
 * production apps A and B. The person is a verified customer of A (an
 * approved session of A's bound to their account) and an active member of
 * A's organization (tests/support/tenant-resources.ts). Then:
 *
 * - A's authorization code and A's refresh token are `invalid_grant` for B
 *   (with A's redirect URI and verifier, or B's own), and mixing one
 *   client's id with the other's secret is `invalid_client`; B's attempts
 *   neither use up nor revoke them: A still redeems and refreshes them.
 * - Consent is per client: B's token reads only the scopes the person gave
 *   B (`insufficient_scope` for verifications, licences and the credential,
 *   though they gave them to A); with verifications consented to B, B reads
 *   the person's own proofs and nothing of A's (no app, session, vendor_data
 *   or member id of A's), and B's ID token has no `svc_org_member_id` (A's).
 * - A's access token is no API key and binds no session of B's.
 * - End-session with an ID token of A's is honoured for A only: naming B
 *   (client_id) or B's redirect URI is refused without a redirect, nothing
 *   revoked; the honoured one revokes A's tokens, never B's.
 *
 * Its own production server (tests/support/oidc-flow.ts) on the shared database.
 */
useServerDatabase();
useOidcProvider();

const REDIRECT_A = "https://rp-a.example/callback";
const REDIRECT_B = "https://rp-b.example/callback";

let a: Tenant;
let b: Tenant;
let r: TenantResources;
let cfgA: client.Configuration;
let cfgB: client.Configuration;
/** A's texts an answer to B must not contain: the person's own id and email are theirs to show, A's are not. */
let textsOfA: string[];
/** The person signed in at A with every scope. */
let tokensA: Awaited<ReturnType<typeof exchange>>;

/** The person's sign-in at one client (their email: the account A verified). */
const signIn = (cfg: client.Configuration, redirectUri: string, scope: string) => authorize({ cfg, redirectUri, scope, email: r.account.email });

async function configure(t: Tenant, redirectUri: string, scopes: string[]) {
  const { addRedirectUri, setScopes } = await import("@/lib/tenancy/oidc-settings");
  await addRedirectUri(t.appId, redirectUri);
  await setScopes(t.appId, scopes);
  return client.discovery(new URL(provider().op.url), t.clientId, t.clientSecret, undefined, { execute: [client.allowInsecureRequests] });
}

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant(undefined, "production"), createTenant(undefined, "production")]);
  r = await seedTenantResources(a);
  cfgA = await configure(a, REDIRECT_A, ["openid", "profile", "verifications", "zkp", "doctor_license"]);
  cfgB = await configure(b, REDIRECT_B, ["openid", "profile", "verifications", "zkp", "doctor_license"]);
  textsOfA = identifyingTexts(a, r).filter((t) => ![r.account.id, r.account.email, r.tag].includes(t));
  // The person's tokens at A, for the blocks after the first (which signs in afresh for a code of its own).
  tokensA = await exchange(await signIn(cfgA, REDIRECT_A, "openid profile verifications zkp doctor_license"), cfgA);
});


/** An answer to B (status, headers, body, and the claims of any ID token in it) carries nothing of A's. */
function expectNothingOfA(answer: { status: number; headers?: Headers; body?: unknown; text?: string }, what: string) {
  const body = answer.text ?? JSON.stringify(answer.body ?? "");
  const idToken = (answer.body as { id_token?: string } | undefined)?.id_token;
  const seen = [body, idToken ? JSON.stringify(jose.decodeJwt(idToken)) : "", ...(answer.headers ? [...answer.headers].map(([k, v]) => `${k}: ${v}`) : [])].join("\n");
  expect(answer.status, `${what}: ${body.slice(0, 300)}`).toBeLessThan(500);
  expect(textsOfA.filter((t) => seen.includes(t)), `${what}: ${body.slice(0, 300)}`).toEqual([]);
}

const codeRequest = (flow: Flow, who: Tenant, redirectUri: string, secret = who.clientSecret) => ({
  grant_type: "authorization_code",
  code: flow.callback.searchParams.get("code")!,
  redirect_uri: redirectUri,
  code_verifier: flow.verifier,
  client_id: who.clientId,
  client_secret: secret,
});

describe("A's authorization code and refresh token are A's only", () => {
  it("B cannot redeem A's code (invalid_grant), nor with mixed credentials (invalid_client); A still redeems it afterwards", async () => {
    const flow = await signIn(cfgA, REDIRECT_A, "openid profile verifications zkp doctor_license");
    for (const [label, body, status, code] of [
      ["B's credentials, A's redirect URI and verifier", codeRequest(flow, b, REDIRECT_A), 400, "invalid_grant"],
      ["B's credentials and redirect URI", codeRequest(flow, b, REDIRECT_B), 400, "invalid_grant"],
      ["B's client id with A's secret", codeRequest(flow, b, REDIRECT_A, a.clientSecret), 401, "invalid_client"],
      ["A's client id with B's secret", codeRequest(flow, a, REDIRECT_A, b.clientSecret), 401, "invalid_client"],
    ] as const) {
      const res = await tokenRequest(body);
      expect(res.status, label).toBe(status);
      expectTokenError(res, code);
      expect(res.body).not.toHaveProperty("access_token");
      expectNothingOfA(res, label);
    }
    // Refused for B: neither used up nor revoked for A.
    const redeemed = await exchange(flow, cfgA);
    expect(redeemed.claims()).toMatchObject({ aud: a.clientId, sub: r.account.id, svc_org_member_id: r.boundMember.memberId });
    expect((await bearer("/api/auth/oidc/userinfo", redeemed.access_token)).status).toBe(200);
  });

  it("B cannot use A's refresh token (invalid_grant), which then still refreshes for A", async () => {
    for (const [label, body, status, code] of [
      ["B's credentials", { grant_type: "refresh_token", refresh_token: tokensA.refresh_token!, client_id: b.clientId, client_secret: b.clientSecret }, 400, "invalid_grant"],
      ["B's client id with A's secret", { grant_type: "refresh_token", refresh_token: tokensA.refresh_token!, client_id: b.clientId, client_secret: a.clientSecret }, 401, "invalid_client"],
    ] as const) {
      const res = await tokenRequest(body, { json: true });
      expect(res.status, label).toBe(status);
      expectEnvelope(res.body, code);
      expectNothingOfA(res, label);
    }
    const refreshed = await client.refreshTokenGrant(cfgA, tokensA.refresh_token!);
    expect(refreshed.claims()).toMatchObject({ aud: a.clientId, sub: r.account.id, svc_org_member_id: r.boundMember.memberId });
    // A's token, now rotated away, replayed by B: refused as B's, and it does not set off A's replay
    // detection (which would end the person's tokens at A).
    const replay = await tokenRequest({ grant_type: "refresh_token", refresh_token: tokensA.refresh_token!, client_id: b.clientId, client_secret: b.clientSecret });
    expect(replay.status).toBe(400);
    expectTokenError(replay, "invalid_grant");
    tokensA = refreshed;
    expect((await bearer("/api/auth/oidc/verifications", tokensA.access_token)).status).toBe(200);
    tokensA = await client.refreshTokenGrant(cfgA, tokensA.refresh_token!);
    expect((await bearer("/api/auth/oidc/userinfo", tokensA.access_token)).status).toBe(200);
  });
});

let narrowB: Awaited<ReturnType<typeof exchange>>;
let verificationsB: Awaited<ReturnType<typeof exchange>>;

describe("an access token reads what the person gave that client, and nothing of the other organization's", () => {
  beforeAll(async () => {
    narrowB = await exchange(await signIn(cfgB, REDIRECT_B, "openid profile"), cfgB);
    verificationsB = await exchange(await signIn(cfgB, REDIRECT_B, "openid profile verifications"), cfgB);
  });

  it("B's ID tokens name the same person, for B, without A's member id", () => {
    for (const tokens of [narrowB, verificationsB]) {
      const claims = tokens.claims()!;
      expect(claims).toMatchObject({ aud: b.clientId, sub: r.account.id });
      expect(claims).not.toHaveProperty("svc_org_member_id");
      expectNothingOfA({ status: 200, body: { id_token: tokens.id_token } }, "B's ID token");
    }
  });

  it("B's token without consent to verifications, licences or zkp is refused there (they were given to A only)", async () => {
    for (const path of ["/api/auth/oidc/verifications", "/api/auth/oidc/licenses"]) {
      const res = await bearer(path, narrowB.access_token);
      expect(res.status, path).toBe(403);
      expectEnvelope(res.body, "insufficient_scope");
      expectNothingOfA(res, path);
    }
    for (const tokens of [narrowB, verificationsB]) {
      const credential = await api("POST", "/api/auth/oidc/credential", { base: provider().op.url, headers: { authorization: `Bearer ${tokens.access_token}` }, json: {} });
      expect(credential.status).toBe(403);
      expectEnvelope(credential.body, "insufficient_scope");
    }
    expect((await bearer("/api/auth/oidc/licenses", verificationsB.access_token)).status).toBe(403);
    // A's token, with the person's consent to all three, is served (the refusals above are B's consent, not the person's data).
    expect((await bearer("/api/auth/oidc/licenses", tokensA.access_token)).status).toBe(200);
    const credentialA = await api("POST", "/api/auth/oidc/credential", { base: provider().op.url, headers: { authorization: `Bearer ${tokensA.access_token}` }, json: {} });
    expect(credentialA.status, credentialA.text.slice(0, 300)).toBe(200);
  });

  it("B's userinfo and verifications are the person's own, as A reads them, with nothing of A's", async () => {
    const userinfoB = await bearer("/api/auth/oidc/userinfo", narrowB.access_token);
    expect(userinfoB.status).toBe(200);
    expect(userinfoB.body.data ?? userinfoB.body).toMatchObject({ sub: r.account.id, email: r.account.email });
    expectNothingOfA(userinfoB, "B's userinfo");
    const mine = await bearer("/api/auth/oidc/verifications", tokensA.access_token);
    const theirs = await bearer("/api/auth/oidc/verifications", verificationsB.access_token);
    expect(theirs.status).toBe(200);
    expect(mine.body.data.verifications.human_verified).toBe(true); // A's approved session saved the face proof
    expect(theirs.body).toEqual(mine.body);
    expectNothingOfA(theirs, "B's verifications");
  });

  it("A's access token is no API key of anyone's, and binds no session of B's", async () => {
    const asKey = await api("GET", `/api/v2/session/${r.approvedSession.id}`, { headers: { authorization: `Bearer ${tokensA.access_token}` } });
    expect(asKey.status).toBe(401);
    expect(asKey.body.error.code).toBe("invalid_api_key");
    const workflowB = await createWorkflow(b, ["liveness"]);
    const foreign = await postSession(b, { workflow_id: workflowB, svc_access_token: tokensA.access_token });
    expect(foreign.status).toBe(401);
    expect(foreign.body.error.code).toBe("invalid_token");
    expectNothingOfA(foreign, "a session of B's with A's access token");
    // B's own token of the same person binds B's session (the guard's success side).
    const own = await postSession(b, { workflow_id: workflowB, svc_access_token: narrowB.access_token });
    expect(own.status, own.text).toBe(201);
    expect((await api("GET", `/api/v2/session/${own.body.data.session_id}`, { headers: keyHeader(b) })).body.data.svc_id).toBe(r.account.id);
  });
});

describe("end-session with A's ID token is honoured for A only", () => {
  const logout = (params: Record<string, string>) => get(`${provider().op.url}/api/auth/oidc/logout?${new URLSearchParams(params)}`, { ip: randomIp() });
  const alive = async (tokens: { access_token: string }) => (await bearer("/api/auth/oidc/userinfo", tokens.access_token)).status === 200;

  it("refuses A's hint for B's client or B's redirect URI (no redirect, nothing revoked), and B's hint for A's URI", async () => {
    const refusals: Array<[string, Record<string, string>, string]> = [
      ["A's hint, B's client_id", { id_token_hint: tokensA.id_token!, client_id: b.clientId }, "invalid_request"],
      ["A's hint, B's client_id and redirect URI", { id_token_hint: tokensA.id_token!, client_id: b.clientId, post_logout_redirect_uri: REDIRECT_B, state: "s" }, "invalid_request"],
      ["A's hint, B's redirect URI", { id_token_hint: tokensA.id_token!, post_logout_redirect_uri: REDIRECT_B, state: "s" }, "invalid_redirect_uri"],
      ["B's hint, A's redirect URI", { id_token_hint: narrowB.id_token!, post_logout_redirect_uri: REDIRECT_A, state: "s" }, "invalid_redirect_uri"],
    ];
    for (const [label, params, code] of refusals) {
      const res = await logout(params);
      expect(res.status, label).toBe(400);
      expect(res.headers.get("location"), label).toBeNull();
      const answer: ApiResponse = { status: res.status, headers: res.headers, text: await res.text(), body: undefined };
      expect(answer.text, label).toContain(code);
    }
    expect(await alive(tokensA)).toBe(true);
    expect(await alive(narrowB)).toBe(true);
    expect(await alive(verificationsB)).toBe(true);
  });

  it("A's hint with A's redirect URI signs the person out of A: A's tokens end, B's stay", async () => {
    const res = await logout({ id_token_hint: tokensA.id_token!, post_logout_redirect_uri: REDIRECT_A, state: "bye" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${REDIRECT_A}?state=bye`);
    expect(await alive(tokensA)).toBe(false);
    await expect(client.refreshTokenGrant(cfgA, tokensA.refresh_token!)).rejects.toThrow();
    expect(await alive(narrowB)).toBe(true);
    expect(await alive(verificationsB)).toBe(true);
    const refreshedB = await client.refreshTokenGrant(cfgB, narrowB.refresh_token!);
    expect(refreshedB.claims()).toMatchObject({ aud: b.clientId, sub: r.account.id });
  });
});
