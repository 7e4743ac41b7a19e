import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { digest as sdDigest } from "@sd-jwt/crypto-nodejs";
import { SDJwtVcInstance } from "@sd-jwt/sd-jwt-vc";
import * as jose from "jose";
import * as client from "openid-client";
import { beforeAll, describe, expect, it } from "vitest";
import { chromiumMissing, launchChromium, seriousViolations } from "../browser/browser";
import { personInFrontOfCamera, personLog } from "../browser/camera-person";
import { writeStillCamera } from "../fixtures/camera/generate-camera";
import { api, bearer as sessionBearer, checkOf, createSession, createTenant, createWorkflow, keyHeader, shared, type Tenant } from "../support/api";
import { cli } from "../support/cli";
import { sql } from "../support/database";
import { useServerDatabase } from "../support/domain";
import { fixture, imageForm } from "../support/images";
import { underScreenLight } from "../support/screen-light";
import {
  authorize,
  bearer,
  csrfOf,
  exchange,
  get,
  newEmail,
  post,
  provider,
  randomIp,
  readCode,
  startCallbackListener,
  startLogin,
  text,
  useOidcProvider,
} from "../support/oidc-flow";

/**
 * Reusable identity (docs/hosted-flow.md "Reusable identity", "Proofs, not data", "Face
 * sign-in", "The person's account page"), for a production app, against
 * this file's own OIDC server (tests/support/oidc-flow.ts) and the real
 * checks engine with the face and document fixtures: proofs saved from an
 * approved bound session and reused by the next one, the identity read, the
 * zkp predicates and their SD-JWT VC, face sign-in (over HTTP and in
 * Chromium with the camera), and the account page (in Chromium).
 */
useServerDatabase();
useOidcProvider();

const op = { get url() { return provider().op.url; } };

describe("reusable identity (verify once, reuse), for a production app", () => {
  const PROD_REDIRECT = "https://rp.example/callback";
  let t: Tenant; // a production app
  let prodConfig: client.Configuration;
  const licence = (who: "a" | "b") => ({ front: fixture("documents", `licence-${who}-front.jpg`), back: fixture("documents", `licence-${who}-back.jpg`) });
  const PERFORMS: Record<string, string> = { "turn_left,turn_right": "a-left-right", "turn_right,turn_left": "a-right-left" };
  const turns = { liveness: { actions: ["turn_left", "turn_right"], actions_per_challenge: 2 } };
  const RAW = /JORDAN|SAMPLE|S4829105|1990-04-12/;
  let kyc: string;
  let reusing: string;

  beforeAll(async () => {
    t = await createTenant(shared().env, "production");
    await cli(["app:redirect-uri", "--app", t.appId, "--uri", PROD_REDIRECT], shared().env);
    await cli(["app:scopes", "--app", t.appId, "--scopes", "openid profile verifications zkp doctor_license"], shared().env);
    prodConfig = await client.discovery(new URL(op.url), t.clientId, t.clientSecret, undefined, { execute: [client.allowInsecureRequests] });
    kyc = await createWorkflow(t, ["id_verification", "liveness", "face_match"], { settings: turns });
    reusing = await createWorkflow(t, ["id_verification", "liveness", "face_match", "age"], { settings: { ...turns, age: { minimum_age: 21 } } });
  });

  const postDocument = (token: string, who: "a" | "b") =>
    api("POST", "/api/v2/document", { headers: sessionBearer(token), form: imageForm(licence(who), { document_type: "driving_licence" }) });
  /** Person A performs the challenge's turns. */
  async function postBurst(token: string) {
    const res = await api("POST", "/api/v2/antispoof/challenge", { headers: sessionBearer(token) });
    const { challenge_id, actions, colours } = res.body.data as { challenge_id: string; actions: string[]; colours: string[] };
    const frames = await underScreenLight([1, 2, 3, 4, 5].map((i) => fixture("faces", PERFORMS[actions.join()]!, `${i}.jpg`)), colours);
    return api("POST", "/api/v2/antispoof", { headers: sessionBearer(token), form: imageForm({ frames }, { challenge_id }) });
  }
  const finish = (token: string) => api("POST", "/api/v2/flow/finish", { headers: sessionBearer(token) });
  const decisionOf = async (id: string, tenant = t) => (await api("GET", `/api/v2/session/${id}/decision`, { headers: keyHeader(tenant) })).body.data;
  const issuerUrl = () => prodConfig.serverMetadata().issuer;
  const jwksUrl = () => new URL(prodConfig.serverMetadata().jwks_uri!);
  const credentialOf = (token: string, body: Record<string, unknown> = {}) =>
    api("POST", "/api/auth/oidc/credential", { base: op.url, headers: { authorization: `Bearer ${token}` }, json: body });
  /** A wallet: its key proof for the credential endpoint, and presentations signed with its key (key binding). */
  async function holderWallet() {
    const { privateKey, publicKey } = await jose.generateKeyPair("ES256");
    const jwk = await jose.exportJWK(publicKey);
    const keyProof = (audience = issuerUrl(), iat = Math.floor(Date.now() / 1000)) =>
      new jose.SignJWT({}).setProtectedHeader({ alg: "ES256", typ: "openid4vci-proof+jwt", jwk }).setAudience(audience).setIssuedAt(iat).sign(privateKey);
    const sdJwt = new SDJwtVcInstance({
      hasher: sdDigest,
      kbSignAlg: "ES256",
      kbSigner: async (data) => Buffer.from(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, privateKey, new TextEncoder().encode(data))).toString("base64url"),
    });
    const present = (credential: string, disclose: Record<string, boolean>, kb?: { aud: string; nonce: string }) =>
      sdJwt.present(credential, disclose, kb ? { kb: { payload: { ...kb, iat: Math.floor(Date.now() / 1000) } } } : undefined);
    return { keyProof, present };
  }
  const verifier = { aud: "https://verifier.example", nonce: "n-0S6_WzA2Mj" };
  const charged = async (id: string) =>
    (await sql(shared().env, "SELECT reference FROM ledger_entries WHERE reference LIKE $1 ORDER BY reference", [`check:${id}:%`])).map((r: { reference: string }) => r.reference.split(":")[2]);

  it("an approved bound session saves proofs; the next one skips the document, matches the enrolled face, and is charged less", async () => {
    const signIn = await authorize({ cfg: prodConfig, redirectUri: PROD_REDIRECT });
    const tokens = await exchange(signIn, prodConfig);
    const svcId = tokens.claims()!.sub;
    const first = await createSession(t, { workflow_id: kyc, svc_access_token: tokens.access_token, vendor_data: `reuse-${svcId}` });
    expect(checkOf(await postDocument(first.session_token, "a"), "id_verification").status).toBe("passed");
    expect(checkOf(await postBurst(first.session_token), "face_match").status).toBe("passed");
    expect((await finish(first.session_token)).body.data.status).toBe("APPROVED");
    const firstDecision = await decisionOf(first.session_id);
    expect(firstDecision).toMatchObject({ svc_id: svcId, origin: "fresh", identity: { svc_id: svcId, full_name: "JORDAN SAMPLE", licenses: [], stale: false } });
    const proofs = await sql(shared().env, "SELECT kind, sealed FROM account_proofs WHERE account_id = $1 ORDER BY kind", [svcId]);
    expect(proofs.map((r: { kind: string }) => r.kind)).toEqual(["document", "face"]);
    for (const r of proofs as { sealed: Buffer }[]) expect(r.sealed.toString("latin1")).not.toMatch(RAW);

    const second = await createSession(t, { workflow_id: reusing, svc_access_token: tokens.access_token });
    const flow = await api("GET", "/api/v2/flow", { headers: sessionBearer(second.session_token) });
    const steps = Object.fromEntries(flow.body.data.steps.map((x: { type: string }) => [x.type, x]));
    expect(steps.id_verification).toMatchObject({ status: "passed", reused: true });
    expect(steps.age).toMatchObject({ status: "passed", reused: true });
    expect(steps.liveness).toMatchObject({ status: "pending", reused: false }); // never reused
    const live = await postBurst(second.session_token);
    expect(checkOf(live, "face_match")).toMatchObject({ status: "passed", data: { reference: "enrolled_face" } });
    expect((await finish(second.session_token)).body.data.status).toBe("APPROVED");
    const decision = await decisionOf(second.session_id);
    expect(decision).toMatchObject({
      status: "APPROVED",
      svc_id: svcId,
      origin: "mixed",
      identity: { svc_id: svcId, full_name: "JORDAN SAMPLE" },
      verifications: { id_verification: { status: "passed" }, liveness: { status: "passed" }, face_match: { status: "passed" }, age: { status: "passed" } },
    });
    expect(checkOf({ body: { data: decision } } as never, "id_verification").data).toMatchObject({ reused: true });
    expect(checkOf({ body: { data: decision } } as never, "age").data).toMatchObject({ reused: true, is_21_plus: true });
    // Only what ran was billed: the reused document and the age it gave were free.
    expect(await charged(first.session_id)).toEqual(["face_match", "id_verification", "liveness"]);
    expect(await charged(second.session_id)).toEqual(["face_match", "liveness"]);

    // The same workflow without the account, or with reuse switched off: everything fresh.
    const unbound = await createSession(t, { workflow_id: reusing });
    const fresh = await createWorkflow(t, ["id_verification", "liveness", "face_match"], { settings: { ...turns, session: { reuse_proofs: false } } });
    const refused = await createSession(t, { workflow_id: fresh, svc_access_token: tokens.access_token });
    for (const s of [unbound, refused]) {
      const f = await api("GET", "/api/v2/flow", { headers: sessionBearer(s.session_token) });
      expect(f.body.data.steps.find((x: { type: string }) => x.type === "id_verification")).toMatchObject({ status: "pending", reused: false });
    }

    // GET /api/v2/identity (spec 4.3): proofs, never the name or the date of birth.
    const read = async (query: string, tenant = t) => api("GET", `/api/v2/identity?${query}`, { headers: keyHeader(tenant) });
    const byId = await read(`svc_id=${svcId}`);
    expect(byId.status).toBe(200);
    expect(byId.body.data.identity).toEqual({
      svc_id: svcId,
      pseudonym: expect.stringMatching(/^psn_[A-Za-z0-9_-]{22}$/),
      age_bands: { is_18_plus: true, is_21_plus: true },
      licenses: [],
      verified_at: expect.any(String),
      stale: false,
    });
    expect(byId.text).not.toMatch(RAW);
    expect((await read(`legacy_id=${svcId}`)).body.data).toEqual(byId.body.data);
    expect((await read(`vendor_data=reuse-${svcId}`)).body.data).toEqual(byId.body.data);
    const missing = await read("");
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe("missing_parameter");
    const unknown = await read("svc_id=00000000-0000-0000-0000-000000000000");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("not_found");
    expect((await read("vendor_data=nobody")).status).toBe(404);
    const conflicting = await read(`svc_id=${svcId}&legacy_id=other`);
    expect(conflicting.status).toBe(400);
    // Another project never reads this person, nor gets the same pseudonym.
    const other = await createTenant();
    expect((await read(`svc_id=${svcId}`, other)).status).toBe(404);

    // The zkp scope: predicates, never the date of birth; as claims and as an SD-JWT VC the app hands on.
    const zkp = await exchange(await authorize({ cfg: prodConfig, redirectUri: PROD_REDIRECT, email: signIn.email, scope: "openid profile zkp" }), prodConfig);
    const info = await bearer("/api/auth/oidc/userinfo", zkp.access_token);
    expect(info.body).toMatchObject({ sub: svcId, id_verified: true, age_over_18: true, age_over_21: true });
    expect(info.body).not.toHaveProperty("licence_valid"); // no licence proven: unknown, not false
    const wallet = await holderWallet();
    const issued = await credentialOf(zkp.access_token, { proof: await wallet.keyProof() });
    expect(issued.status).toBe(200);
    expect(issued.body.data).toMatchObject({ format: "dc+sd-jwt", claims: ["id_verified", "age_over_18", "age_over_21"], holder_bound: true });
    // The name as verified comes with `profile` (spec 2.10); the date of birth and the document number never.
    expect(info.body.name).toBe("JORDAN SAMPLE");
    expect(info.text).not.toMatch(/S4829105|1990-04-12/);
    expect(issued.text).not.toMatch(RAW);
    // The holder discloses only age_over_18 to a verifier, bound to that verifier's nonce.
    const presentation = await wallet.present(issued.body.data.credential, { age_over_18: true }, verifier);
    expect(presentation.split("~")).toHaveLength(3); // issuer JWT, one disclosure, key binding
    const { verifyPredicatePresentation } = await import("@/lib/oidc/verify-predicate-presentation");
    const check = { issuer: issuerUrl(), jwks: jwksUrl(), audience: verifier.aud, nonce: verifier.nonce };
    expect(await verifyPredicatePresentation(presentation, check)).toMatchObject({ predicates: { age_over_18: true }, holderBound: true });
    await expect(verifyPredicatePresentation(presentation, { ...check, nonce: "another-verifiers-nonce" })).rejects.toThrow(/nonce/i);
    await expect(verifyPredicatePresentation(presentation, { ...check, audience: "https://elsewhere.example" })).rejects.toThrow(/audience/i);
    const copied = await wallet.present(issued.body.data.credential, { age_over_18: true }); // without the holder's key binding
    await expect(verifyPredicatePresentation(copied, check)).rejects.toThrow();
    const thief = await holderWallet(); // a key binding signed by another key than the credential's
    await expect(verifyPredicatePresentation(await thief.present(issued.body.data.credential, { age_over_18: true }, verifier), check)).rejects.toThrow(/signature/i);

    // The person revokes this app: the read is 404, the decision loses its identity, the refresh token stops working.
    const { deleteAccount, listSharedApps, revokeAppAccess } = await import("@/lib/account-page/account-lifecycle");
    expect((await listSharedApps(svcId)).map((a) => [a.app_id, a.revoked_at])).toEqual([[t.appId, null]]);
    expect(await revokeAppAccess(svcId, other.appId)).toBe(false);
    expect(await revokeAppAccess(svcId, t.appId)).toBe(true);
    expect((await read(`svc_id=${svcId}`)).status).toBe(404);
    // Spec 2.2: still bound, so not null; nothing of the profile any more.
    expect((await decisionOf(second.session_id)).identity).toEqual({ svc_id: svcId, shared: false, full_name: null, licenses: [], verified_at: null, stale: false });
    await expect(client.refreshTokenGrant(prodConfig, tokens.refresh_token!)).rejects.toThrow();
    // Deleting the account: proofs and enrolled face gone; the sessions keep their verdicts without the person.
    expect(await deleteAccount(svcId)).toBe(true);
    expect(await sql(shared().env, "SELECT kind FROM account_proofs WHERE account_id = $1", [svcId])).toEqual([]);
    expect(await decisionOf(second.session_id)).toMatchObject({ status: "APPROVED", svc_id: null, origin: "mixed", identity: null });
    expect(await deleteAccount(svcId)).toBe(false);
  });

  it("zkp credential: nothing proven answers id_verified false and no age; a refused scope, key proof or tampered presentation", async () => {
    const tokens = await exchange(await authorize({ cfg: prodConfig, redirectUri: PROD_REDIRECT, scope: "openid profile zkp" }), prodConfig);
    const info = await bearer("/api/auth/oidc/userinfo", tokens.access_token);
    expect(info.body.id_verified).toBe(false);
    expect(info.body).not.toHaveProperty("age_over_18");
    const bare = await credentialOf(tokens.access_token);
    expect(bare.status).toBe(200);
    expect(bare.headers.get("cache-control")).toBe("no-store");
    expect(bare.body.data).toMatchObject({ claims: ["id_verified"], holder_bound: false, vct: "urn:svc:vct:identity-predicates:1" });
    const [issuerJwt] = bare.body.data.credential.split("~");
    expect(jose.decodeProtectedHeader(issuerJwt)).toMatchObject({ typ: "dc+sd-jwt", alg: "RS256", kid: expect.any(String) });
    const payload = jose.decodeJwt(issuerJwt);
    expect(payload._sd).toHaveLength(4); // decoys: the count does not tell what the person has proven
    expect(payload).not.toHaveProperty("sub");
    const { verifyPredicatePresentation } = await import("@/lib/oidc/verify-predicate-presentation");
    const check = { issuer: issuerUrl(), jwks: jwksUrl() };
    expect(await verifyPredicatePresentation(bare.body.data.credential, check)).toMatchObject({ predicates: { id_verified: false }, holderBound: false });

    // Tampering: a disclosure rewritten to true, another issuer, an expired credential.
    const [jwt, disclosure] = bare.body.data.credential.split("~") as [string, string];
    const [salt, name] = JSON.parse(Buffer.from(disclosure, "base64url").toString()) as [string, string, boolean];
    const forged = `${jwt}~${Buffer.from(JSON.stringify([salt, name, true])).toString("base64url")}~`;
    await expect(verifyPredicatePresentation(forged, check)).rejects.toThrow(/not part of the credential/);
    // A verifier that asks for a key binding (a nonce) refuses a credential any copy of which would pass.
    await expect(verifyPredicatePresentation(bare.body.data.credential, { ...check, nonce: "n-1", audience: "https://verifier.example" })).rejects.toThrow(/not bound to a holder key/);
    await expect(verifyPredicatePresentation(bare.body.data.credential, { ...check, issuer: "https://other-issuer.example" })).rejects.toThrow(/issuer/i);
    await expect(verifyPredicatePresentation(bare.body.data.credential, { ...check, at: new Date(Date.now() + 25 * 3600_000) })).rejects.toThrow(/expired/i);

    // Refusals: no token, no zkp scope, key proofs that prove nothing.
    expect((await credentialOf("at_nope")).status).toBe(401);
    const noZkp = await exchange(await authorize({ cfg: prodConfig, redirectUri: PROD_REDIRECT, scope: "openid profile" }), prodConfig);
    const refused = await credentialOf(noZkp.access_token);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("insufficient_scope");
    const wallet = await holderWallet();
    for (const proof of ["not-a-jwt", await wallet.keyProof("https://another-issuer.example"), await wallet.keyProof(issuerUrl(), Math.floor(Date.now() / 1000) - 3600)]) {
      const res = await credentialOf(tokens.access_token, { proof });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
  });

  it("an expired or a stale document proof is never reused nor served as verified", async () => {
    const tokens = await exchange(await authorize({ cfg: prodConfig, redirectUri: PROD_REDIRECT, scope: "openid profile verifications zkp" }), prodConfig);
    const svcId = tokens.claims()!.sub;
    const docOnly = await createWorkflow(t, ["id_verification"]);
    const first = await createSession(t, { workflow_id: docOnly, svc_access_token: tokens.access_token });
    expect(checkOf(await postDocument(first.session_token, "b"), "id_verification").status).toBe("passed");
    expect((await finish(first.session_token)).body.data.status).toBe("APPROVED");
    const documentStep = async () => {
      const s = await createSession(t, { workflow_id: docOnly, svc_access_token: tokens.access_token });
      const f = await api("GET", "/api/v2/flow", { headers: sessionBearer(s.session_token) });
      return f.body.data.steps.find((x: { type: string }) => x.type === "id_verification");
    };
    const verified = async () => (await bearer("/api/auth/oidc/verifications", tokens.access_token)).body.data.verifications.id_verified;
    const identity = () => api("GET", `/api/v2/identity?svc_id=${svcId}`, { headers: keyHeader(t) });
    expect(await documentStep()).toMatchObject({ status: "passed", reused: true });
    expect(await verified()).toBe(true);

    // Time passes (the stored dates are moved back, as a clock moved forward would see them).
    await sql(shared().env, "UPDATE account_proofs SET valid_until = now() - interval '1 day' WHERE account_id = $1 AND kind = 'document'", [svcId]);
    expect(await documentStep()).toMatchObject({ status: "pending", reused: false });
    expect(await verified()).toBe(false);
    expect((await identity()).status).toBe(404); // nothing left that is not expired

    await sql(shared().env, "UPDATE account_proofs SET valid_until = now() + interval '1 year', verified_at = now() - interval '366 days' WHERE account_id = $1 AND kind = 'document'", [svcId]);
    expect(await documentStep()).toMatchObject({ status: "pending", reused: false });
    expect(await verified()).toBe(false);
    const stale = await identity();
    expect(stale.status).toBe(200);
    expect(stale.body.data.identity).toMatchObject({ stale: true });
    const info = await bearer("/api/auth/oidc/userinfo", tokens.access_token);
    expect(info.body).toMatchObject({ id_verified: false });
    expect(info.body).not.toHaveProperty("age_over_18");
  });

  it("issue 33: reused proofs are written with the session: a failure writing them creates nothing, the retry creates it with them, a later retry replays it", async () => {
    const tokens = await exchange(await authorize({ cfg: prodConfig, redirectUri: PROD_REDIRECT }), prodConfig);
    const docOnly = await createWorkflow(t, ["id_verification", "age"], { settings: { age: { minimum_age: 18 } } });
    const first = await createSession(t, { workflow_id: docOnly, svc_access_token: tokens.access_token });
    expect(checkOf(await postDocument(first.session_token, "b"), "id_verification").status).toBe("passed");
    expect((await finish(first.session_token)).body.data.status).toBe("APPROVED");

    const key = `reuse-${first.session_id}`;
    const create = () =>
      api("POST", "/api/v2/session", { headers: { ...keyHeader(t), "Idempotency-Key": key }, json: { workflow_id: docOnly, svc_access_token: tokens.access_token } });
    // A fault injected in the database (not in our code): writing a check reused from this proof fails, as a
    // lost connection would. The whole creation fails with it: no session without its proofs, no stored answer.
    await sql(shared().env, "CREATE SCHEMA IF NOT EXISTS test_faults");
    await sql(shared().env, "CREATE TABLE IF NOT EXISTS test_faults.refuse_reuse (proof_session_id text PRIMARY KEY)");
    await sql(
      shared().env,
      `CREATE OR REPLACE FUNCTION test_faults.refuse_reused_check() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF NEW.evidence->>'source' = 'account_proof'
            AND EXISTS (SELECT 1 FROM test_faults.refuse_reuse WHERE proof_session_id = NEW.evidence->>'proof_session_id') THEN
           RAISE EXCEPTION 'test fault: reused check refused';
         END IF;
         RETURN NEW;
       END $$`,
    );
    await sql(shared().env, "DROP TRIGGER IF EXISTS refuse_reused_check ON check_results");
    await sql(shared().env, "CREATE TRIGGER refuse_reused_check BEFORE INSERT ON check_results FOR EACH ROW EXECUTE FUNCTION test_faults.refuse_reused_check()");
    await sql(shared().env, "INSERT INTO test_faults.refuse_reuse VALUES ($1)", [first.session_id]);
    const sessionsOf = async () => (await sql(shared().env, "SELECT id FROM sessions WHERE account_id = $1", [tokens.claims()!.sub])).length;
    try {
      const failed = await create();
      expect(failed.status).toBe(500);
      expect(failed.body.error.code).toBe("server_error");
      expect(await sessionsOf()).toBe(1); // only the first: the failed creation left nothing behind
    } finally {
      await sql(shared().env, "DELETE FROM test_faults.refuse_reuse WHERE proof_session_id = $1", [first.session_id]);
    }
    // The retry with the same key runs again (a 5xx stores no answer) and creates the session with its proofs.
    const created = await create();
    expect(created.status).toBe(201);
    expect(created.headers.get("idempotent-replayed")).toBeNull();
    expect(await sessionsOf()).toBe(2);
    const id = created.body.data.session_id as string;
    // The first read after the 201 already has them: the proofs were written with the session.
    const summary = await api("GET", `/api/v2/session/${id}/decision`, { headers: keyHeader(t) });
    expect(summary.status).toBe(200);
    expect(checkOf(summary, "id_verification")).toMatchObject({ status: "passed", data: { reused: true } });
    expect(checkOf(summary, "age")).toMatchObject({ data: { reused: true } });
    const flow = await api("GET", "/api/v2/flow", { headers: sessionBearer(created.body.data.session_token) });
    expect(flow.body.data.steps.find((x: { type: string }) => x.type === "id_verification")).toMatchObject({ status: "passed", reused: true });

    const retried = await create();
    expect(retried.status).toBe(201);
    expect(retried.headers.get("idempotent-replayed")).toBe("true");
    expect(retried.body.data.session_id).toBe(id);
    const rows = await sql(shared().env, "SELECT type FROM check_results WHERE session_id = $1 ORDER BY type", [id]);
    expect(rows.map((r: { type: string }) => r.type)).toEqual(["age", "id_verification"]);
  });

  it.skipIf(Boolean(chromiumMissing))("the account page in Chromium: sign in by email code, see what was proven, revoke an app, delete the account", async () => {
    const signIn = await authorize({ cfg: prodConfig, redirectUri: PROD_REDIRECT });
    const tokens = await exchange(signIn, prodConfig);
    const svcId = tokens.claims()!.sub;
    const s = await createSession(t, { workflow_id: kyc, svc_access_token: tokens.access_token });
    expect(checkOf(await postDocument(s.session_token, "a"), "id_verification").status).toBe("passed");
    expect(checkOf(await postBurst(s.session_token), "face_match").status).toBe("passed");
    expect((await finish(s.session_token)).body.data.status).toBe("APPROVED");
    const [{ name: appName }] = await sql(shared().env, "SELECT name FROM apps WHERE id = $1", [t.appId]);

    const browser = await launchChromium("none");
    try {
      const context = await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": randomIp() }, locale: "en-GB" });
      const page = await context.newPage();
      await page.goto(`${op.url}/account`);
      await page.getByRole("link", { name: "Sign in" }).click();
      // The service's own sign-in page, for its first-party "Your account" client.
      await page.getByText("to continue to Your account").waitFor();
      await page.getByLabel("Email address").fill(signIn.email);
      await page.getByRole("button", { name: "Send code" }).click();
      await page.getByLabel("6-digit code").fill(await readCode(signIn.email));
      // No consent step for the service's own account page: straight back to it.
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByText(`Signed in as ${signIn.email}.`).waitFor();
      expect(new URL(page.url()).pathname).toBe("/account");
      const proofs = await page.getByTestId("proofs").textContent();
      expect(proofs).toContain("Identity document: driving licence");
      expect(proofs).toContain("Enrolled face, from your selfie video");
      expect(proofs).toContain("Age: over 18");
      expect(await page.content()).not.toMatch(RAW);
      await page.screenshot({ path: "test-artifacts/screenshots/account-page.png", fullPage: true });
      expect(await seriousViolations(page)).toEqual([]);
      // The sign-in left no grant behind: the page keeps no token.
      expect(await sql(shared().env, "SELECT count(*)::int AS n FROM oidc_grants g JOIN apps a ON a.id = g.app_id WHERE a.client_id = 'svc_account_page' AND g.account_id = $1 AND g.revoked_at IS NULL", [svcId])).toEqual([{ n: 0 }]);

      const identity = () => api("GET", `/api/v2/identity?svc_id=${svcId}`, { headers: keyHeader(t) });
      expect((await identity()).status).toBe(200);
      await page.getByRole("button", { name: `Revoke access for ${appName}` }).click();
      await page.getByRole("dialog", { name: `Revoke access for ${appName}?` }).getByRole("button", { name: "Revoke access" }).click();
      await page.getByText("Access revoked. That app can no longer read your identity.").waitFor();
      await page.getByText(/^Access revoked on /).waitFor();
      expect((await identity()).status).toBe(404);
      await expect(client.refreshTokenGrant(prodConfig, tokens.refresh_token!)).rejects.toThrow();

      // Deleting needs DELETE typed: without it the browser's own check stops the form; the server checks too.
      await page.getByLabel("Type DELETE to confirm").fill("DELETE");
      await page.getByRole("button", { name: "Delete my account" }).click();
      await page.getByText("Your account is deleted. You are signed out.").waitFor();
      await page.getByRole("link", { name: "Sign in" }).waitFor();
      expect(await sql(shared().env, "SELECT id FROM accounts WHERE id = $1", [svcId])).toEqual([]);
      expect(await sql(shared().env, "SELECT kind FROM account_proofs WHERE account_id = $1", [svcId])).toEqual([]);
      expect(await decisionOf(s.session_id)).toMatchObject({ status: "APPROVED", svc_id: null });
    } finally {
      await browser.close();
    }
  }, 120_000);

  it("the account page refuses a forged cookie, a post without its CSRF token, a callback with the wrong state, and DELETE not typed", async () => {
    const page = (path: string, init: RequestInit = {}) => fetch(`${op.url}${path}`, { redirect: "manual", ...init, headers: { "x-forwarded-for": randomIp(), ...init.headers } });
    const form = (body: Record<string, string>, cookie?: string) => ({
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
      body: new URLSearchParams(body).toString(),
    });
    const forgedCookie = await page("/account", { headers: { cookie: "svc_account=forged" } });
    expect(text(await forgedCookie.text())).toContain("Sign in");
    expect(forgedCookie.headers.get("x-frame-options")).toBe("DENY");
    expect(forgedCookie.headers.get("content-security-policy")).toBe("frame-ancestors 'none'");
    expect((await page("/account/delete", form({ confirm: "DELETE" }))).headers.get("location")).toBe(`${op.url}/account?m=signed_out`);
    // A real signed-in cookie, as the callback sets it.
    const { accountSessionCookie } = await import("@/lib/account-page/account-cookies");
    const account = await exchange(await authorize({ cfg: prodConfig, redirectUri: PROD_REDIRECT, scope: "openid" }), prodConfig);
    const cookie = accountSessionCookie(account.claims()!.sub).split(";")[0]!;
    const signedIn = await (await page("/account", { headers: { cookie } })).text();
    expect(text(signedIn)).toContain("Signed in as");
    const csrf = signedIn.match(/name="csrf" value="([^"]+)"/)![1]!;
    expect((await page("/account/delete", form({ confirm: "DELETE" }, cookie))).headers.get("location")).toBe(`${op.url}/account?m=csrf`);
    expect((await page("/account/delete", form({ csrf, confirm: "yes" }, cookie))).headers.get("location")).toBe(`${op.url}/account?m=confirm_delete`);
    expect((await page("/account/revoke", form({ csrf, app_id: t.appId }, cookie))).headers.get("location")).toBe(`${op.url}/account?m=not_found`);
    expect((await page("/account/delete", { ...form({ csrf, confirm: "DELETE" }, cookie), headers: { ...form({}, cookie).headers, origin: "https://evil.example" } })).status).toBe(403);
    expect(await sql(shared().env, "SELECT id FROM accounts WHERE id = $1", [account.claims()!.sub])).toHaveLength(1);
    // The sign-in's state must come back unchanged, from the browser that started it.
    const start = await page("/account/sign-in");
    expect(start.headers.get("location")).toMatch(new RegExp(`^${op.url}/api/auth/oidc/authorize\\?client_id=svc_account_page&`));
    const wrongState = await page("/account/callback?code=ac_x&state=other&iss=" + encodeURIComponent(op.url), { headers: { cookie: start.headers.get("set-cookie")!.split(";")[0]! } });
    expect(wrongState.headers.get("location")).toBe(`${op.url}/account?m=sign_in_failed`);
    expect(wrongState.headers.get("set-cookie")).toMatch(/svc_account_sign_in=;.*Max-Age=0/);
  });

  describe("face sign-in on the login screen", () => {
    const framesOf = (dir: string) => [1, 2, 3, 4, 5].map((i) => fixture("faces", dir, `${i}.jpg`));
    /** A new account whose enrolled face is the portrait of `who`'s licence (as an approved session saves it). */
    async function enrolled(who: "a" | "b") {
      const signIn = await authorize({ cfg: prodConfig, redirectUri: PROD_REDIRECT });
      const tokens = await exchange(signIn, prodConfig);
      const s = await createSession(t, { workflow_id: kyc, svc_access_token: tokens.access_token });
      expect(checkOf(await postDocument(s.session_token, who), "id_verification").status).toBe("passed");
      const { loadJsonArtifact } = await import("@/lib/artifacts/artifacts");
      const { sealJson } = await import("@/lib/crypto/encryption");
      const portrait = await loadJsonArtifact(s.session_id, "portrait_template");
      await sql(shared().env, "INSERT INTO account_proofs (id, account_id, kind, key, verified_at, sealed, updated_at) VALUES (gen_random_uuid()::text, $1, 'face', '', now(), $2, now())", [tokens.claims()!.sub, Buffer.from(sealJson(portrait))]);
      return { email: signIn.email, svcId: tokens.claims()!.sub };
    }
    /** A browser at the sign-in page that chose "Sign in with my face" for `email`. */
    async function faceLogin(email: string) {
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const url = client.buildAuthorizationUrl(prodConfig, {
        redirect_uri: PROD_REDIRECT, scope: "openid", state, code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256",
      });
      const b = await startLogin(url);
      const chosen = await post(`${b.page}/email`, b, { csrf: csrfOf(b.html), email, method: "face" });
      expect(chosen.headers.get("location")).toBe(b.page);
      const html = await (await get(b.page, b)).text();
      expect(text(html)).toContain("Sign in with your face");
      const csrf = csrfOf(html);
      const headers = { cookie: b.cookie, "x-forwarded-for": b.ip };
      const json = async (res: Response) => ({ status: res.status, headers: res.headers, body: (await res.json()) as any });
      const challenge = async (token = csrf) =>
        json(await fetch(`${b.page}/face/challenge`, { method: "POST", headers: { ...headers, "x-csrf-token": token } }));
      const burst = async (challengeId: string, frames: Buffer[], extra: Record<string, string> = { "x-csrf-token": csrf }) =>
        json(await fetch(`${b.page}/face`, { method: "POST", headers: { ...headers, ...extra }, body: imageForm({ frames }, { challenge_id: challengeId }) }));
      /** Person A performs the challenge's turns. */
      const liveA = async () => {
        const c = await challenge();
        expect(c.status).toBe(201);
        return burst(c.body.data.challenge_id, await underScreenLight(framesOf(PERFORMS[c.body.data.actions.join()]!), c.body.data.colours));
      };
      return { b, csrf, verifier, state, challenge, burst, liveA };
    }

    it("the enrolled person signs in with a live face and the app gets their account", async () => {
      const a = await enrolled("a");
      const login = await faceLogin(a.email);
      const signedIn = await login.liveA();
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.data).toEqual({ signed_in: true, location: login.b.page });
      const consent = await (await get(login.b.page, login.b)).text();
      expect(text(consent)).toContain(`You are signed in as ${a.email}`);
      const done = await post(`${login.b.page}/consent`, login.b, { csrf: csrfOf(consent), decision: "allow" });
      const tokens = await client.authorizationCodeGrant(prodConfig, new URL(done.headers.get("location")!), { pkceCodeVerifier: login.verifier, expectedState: login.state });
      expect(tokens.claims()!.sub).toBe(a.svcId);
      // The request is used up: its face endpoints are gone with it.
      expect((await login.challenge()).status).toBe(410);
    });

    it.skipIf(Boolean(chromiumMissing))("in Chromium with the camera: A signs in by following the instructions; B's face in front of A's account fails", async () => {
      const a = await enrolled("a");
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-face-sign-in-"));
      const browser = await launchChromium(await writeStillCamera(path.join(dir, "b-still.y4m")));
      const rp = await startCallbackListener();
      const redirectUri = rp.redirectUri;
      await cli(["app:redirect-uri", "--app", t.appId, "--uri", redirectUri], shared().env);
      const signInPage = async (person: "a" | "camera") => {
        const context = await browser.newContext({ permissions: ["camera"], extraHTTPHeaders: { "x-forwarded-for": randomIp() }, locale: "en-GB" });
        const page = await context.newPage();
        if (person === "a") await personInFrontOfCamera(page, { performs: "as_asked" });
        const verifier = client.randomPKCECodeVerifier();
        const state = client.randomState();
        await page.goto(
          client.buildAuthorizationUrl(prodConfig, {
            redirect_uri: redirectUri, scope: "openid", state, code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256",
          }).href,
        );
        await page.getByLabel("Email address").fill(a.email);
        await page.getByRole("button", { name: "Sign in with my face instead" }).click();
        await page.getByRole("heading", { level: 1, name: "Sign in with your face" }).waitFor();
        return { page, verifier, state };
      };
      try {
        const asA = await signInPage("a");
        expect(await seriousViolations(asA.page)).toEqual([]);
        await asA.page.getByText("You have 3 tries left.").waitFor();
        await asA.page.screenshot({ path: "test-artifacts/screenshots/face-sign-in.png", fullPage: true });
        await asA.page.getByRole("button", { name: "Start the camera" }).click();
        await asA.page.getByRole("button", { name: "Allow" }).waitFor({ timeout: 60_000 }).catch(async (err) => {
          console.error("face sign-in surprise; the person did:", JSON.stringify(await personLog(asA.page)), await asA.page.getByTestId("face-scan").textContent());
          throw err;
        });
        await asA.page.getByRole("button", { name: "Allow" }).click();
        await asA.page.waitForURL((u) => u.href.startsWith(`${redirectUri}?`), { timeout: 20_000 });
        const tokens = await client.authorizationCodeGrant(prodConfig, rp.callback!, { pkceCodeVerifier: asA.verifier, expectedState: asA.state });
        expect(tokens.claims()!.sub).toBe(a.svcId);

        // Chromium's own camera plays person B, who never moves: not live, and not A.
        const asB = await signInPage("camera");
        await asB.page.getByRole("button", { name: "Start the camera" }).click();
        await asB.page.getByRole("alert").getByText("We could not confirm").waitFor({ timeout: 60_000 });
        await asB.page.getByText("You have 2 tries left.").waitFor();
        await asB.page.getByRole("button", { name: "Try again" }).waitFor();
      } finally {
        await browser.close();
        await rp.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }, 150_000);

    it("another face, a still picture or an unknown address fail alike; three scans per sign-in; five failed scans lock face sign-in, not the code", async () => {
      const b = await enrolled("b");
      const first = await faceLogin(b.email);
      expect((await first.challenge("forged")).status).toBe(403);
      const notB = await first.liveA();
      expect(notB.status).toBe(403);
      expect(notB.body).toMatchObject({ success: false, error: { code: "face_not_matched" }, data: { reason: "not_matched", attempts_left: 2 } });
      for (const still of ["b-still", "a-still"]) {
        const c = await first.challenge();
        const res = await first.burst(c.body.data.challenge_id, framesOf(still));
        expect(res.status).toBe(403);
        expect(res.body.data.reason).toBe("not_live");
      }
      const fourth = await first.challenge();
      expect(fourth.status).toBe(429);
      expect(fourth.body.error.code).toBe("too_many_attempts");

      // The burst needs the page's CSRF header and the sign-in cookie, checked before the upload is read.
      expect((await first.burst("00000000-0000-4000-8000-000000000000", framesOf("a-still"), {})).status).toBe(403);
      const stranger = await fetch(`${first.b.page}/face`, { method: "POST", headers: { "x-csrf-token": first.csrf }, body: imageForm({ frames: framesOf("a-still") }) });
      expect(stranger.status).toBe(410);
      const second = await faceLogin(b.email);
      expect((await second.burst("00000000-0000-4000-8000-000000000000", framesOf("a-still"))).body.error.code).toBe("invalid_challenge");
      expect((await second.liveA()).status).toBe(403); // the fourth failed scan
      const fifth = await second.liveA();
      expect(fifth.status).toBe(429);
      expect(fifth.body.error.code).toBe("too_many_attempts");
      const locked = await (await faceLogin(b.email)).challenge();
      expect(locked.status).toBe(423);
      expect(locked.body).toMatchObject({ error: { code: "verification_soft_locked" }, data: { locked_until: expect.any(String) } });
      expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(800);
      // The emailed code still signs the person in.
      const byCode = await exchange(await authorize({ cfg: prodConfig, redirectUri: PROD_REDIRECT, email: b.email, scope: "openid" }), prodConfig);
      expect(byCode.claims()!.sub).toBe(b.svcId);

      // An address without an account gets the same challenges, refusals and lock: nothing tells it apart.
      const address = newEmail();
      const nobody = await faceLogin(address);
      const unknown = await nobody.liveA();
      expect(unknown.status).toBe(403);
      expect(unknown.body).toMatchObject({ error: { code: "face_not_matched" }, data: { reason: "not_matched", attempts_left: 2 } });
      for (const login of [nobody, nobody]) expect((await login.liveA()).status).toBe(403);
      const again = await faceLogin(address);
      expect((await again.liveA()).status).toBe(403);
      const fifthUnknown = await again.liveA();
      expect(fifthUnknown.status).toBe(429);
      expect(fifthUnknown.body).toMatchObject({ error: { code: "too_many_attempts" }, data: { locked_until: expect.any(String) } });
      const refused = await (await faceLogin(address)).challenge();
      expect(refused.status).toBe(423);
      expect(refused.body).toMatchObject({ error: { code: "verification_soft_locked" }, data: { locked_until: expect.any(String) } });
    });
  });

  describe("issue 33 items 8 and 9: POST /api/v2/antispoof/identity, the verified name in userinfo, identity on a declined bound session, licences' scope", () => {
    /** Person A performs the challenge `c` asked for, sent to the identity burst. */
    async function identityBurst(token: string, c?: { challenge_id: string; actions: string[]; colours: string[] }) {
      const challenge = c ?? (await api("POST", "/api/v2/antispoof/challenge", { headers: sessionBearer(token) })).body.data;
      const frames = await underScreenLight([1, 2, 3, 4, 5].map((i) => fixture("faces", PERFORMS[challenge.actions.join()]!, `${i}.jpg`)), challenge.colours);
      return api("POST", "/api/v2/antispoof/identity", { headers: sessionBearer(token), form: imageForm({ frames }, { challenge_id: challenge.challenge_id }) });
    }

    it("a verified person: userinfo gives the verified name; the identity burst matches the enrolled face, billed as liveness + face match", async () => {
      const tokens = await exchange(await authorize({ cfg: prodConfig, redirectUri: PROD_REDIRECT }), prodConfig);
      const svcId = tokens.claims()!.sub;
      const info = () => bearer("/api/auth/oidc/userinfo", tokens.access_token);
      const before = await info();
      expect(before.status).toBe(200);
      expect(before.body.name).toBeUndefined(); // no name given, none verified yet
      const kycSession = await createSession(t, { workflow_id: kyc, svc_access_token: tokens.access_token });
      expect(checkOf(await postDocument(kycSession.session_token, "a"), "id_verification").status).toBe("passed");
      expect(checkOf(await postBurst(kycSession.session_token), "face_match").status).toBe("passed");
      expect((await finish(kycSession.session_token)).body.data.status).toBe("APPROVED");
      // 9 (a): the name as verified on the document, under `profile`; never the date of birth or the document number.
      const after = await info();
      expect(after.body).toMatchObject({ sub: svcId, name: "JORDAN SAMPLE", id_verified: true });
      expect(after.text).not.toMatch(/S4829105|1990-04-12/);

      // 8: a bound session of liveness + face match; the burst is matched 1:1 against the enrolled face.
      const faceOnly = await createWorkflow(t, ["liveness", "face_match"], { settings: turns });
      const s = await createSession(t, { workflow_id: faceOnly, svc_access_token: tokens.access_token, vendor_data: `identity-${svcId}` });
      const ok = await identityBurst(s.session_token);
      expect(ok.status).toBe(200);
      expect(checkOf(ok, "liveness").status).toBe("passed");
      expect(checkOf(ok, "face_match")).toMatchObject({ status: "passed", data: { reference: "enrolled_face", threshold: expect.any(Number) } });
      expect(checkOf(ok, "face_match").data.document_similarity).toBeUndefined();
      expect(await charged(s.session_id)).toEqual(["face_match", "liveness"]);
      expect((await finish(s.session_token)).body.data.status).toBe("APPROVED");
      expect(await decisionOf(s.session_id)).toMatchObject({ status: "APPROVED", svc_id: svcId, identity: { svc_id: svcId, shared: true, full_name: "JORDAN SAMPLE" } });

      // 9 (c): licences need doctor_license (a documented deviation from spec 4.5: numbers are not released to a bare sign-in).
      const licences = await bearer("/api/auth/oidc/licenses", tokens.access_token);
      expect(licences.status).toBe(403);
      expect(licences.body.error.code).toBe("insufficient_scope");
      const allowed = await exchange(await authorize({ cfg: prodConfig, redirectUri: PROD_REDIRECT, scope: "openid doctor_license" }), prodConfig);
      expect(await bearer("/api/auth/oidc/licenses", allowed.access_token)).toMatchObject({ status: 200, body: { success: true, data: { licenses: [] } } });
    });

    it("another face: 403 face_not_matched with the checks, both billed; the declined bound session keeps a non-null identity; unbound and face-less sessions refused", async () => {
      const faceOnly = await createWorkflow(t, ["liveness", "face_match"], { settings: turns });
      // Unbound: 400 invalid_session, nothing judged or billed.
      const unbound = await createSession(t, { workflow_id: faceOnly });
      const refused = await identityBurst(unbound.session_token);
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe("invalid_session");
      expect(await charged(unbound.session_id)).toEqual([]);

      // Person B's face (the portrait of B's licence), to enrol on the account below.
      const docOnly = await createWorkflow(t, ["id_verification"]);
      const docSession = await createSession(t, { workflow_id: docOnly });
      expect(checkOf(await postDocument(docSession.session_token, "b"), "id_verification").status).toBe("passed");
      const { loadJsonArtifact } = await import("@/lib/artifacts/artifacts");
      const { sealJson } = await import("@/lib/crypto/encryption");
      const portraitOfB = await loadJsonArtifact(docSession.session_id, "portrait_template");

      const tokens = await exchange(await authorize({ cfg: prodConfig, redirectUri: PROD_REDIRECT }), prodConfig);
      const svcId = tokens.claims()!.sub;
      const s = await createSession(t, { workflow_id: faceOnly, svc_access_token: tokens.access_token });
      const challenge = (await api("POST", "/api/v2/antispoof/challenge", { headers: sessionBearer(s.session_token) })).body.data;
      // No enrolled face yet: 409 face_not_enrolled, the challenge is not used up.
      const noFace = await identityBurst(s.session_token, challenge);
      expect(noFace.status).toBe(409);
      expect(noFace.body.error.code).toBe("face_not_enrolled");
      expect(await charged(s.session_id)).toEqual([]);
      await sql(shared().env, "INSERT INTO account_proofs (id, account_id, kind, key, verified_at, sealed, updated_at) VALUES (gen_random_uuid()::text, $1, 'face', '', now(), $2, now())", [svcId, Buffer.from(sealJson(portraitOfB))]);
      // Person A, live, against B's enrolled face.
      const mismatch = await identityBurst(s.session_token, challenge);
      expect(mismatch.status).toBe(403);
      expect(mismatch.body).toMatchObject({ success: false, error: { code: "face_not_matched" } });
      const checks = Object.fromEntries(mismatch.body.data.checks.map((c: { type: string }) => [c.type, c]));
      expect(checks.liveness.status).toBe("passed");
      expect(checks.face_match).toMatchObject({ status: "failed", data: { reference: "enrolled_face" }, error: { code: "face_mismatch" } });
      expect(await charged(s.session_id)).toEqual(["face_match", "liveness"]);

      // 9 (b): bound but DECLINED: identity is not null (spec 2.2), and releases nothing of the profile.
      expect((await finish(s.session_token)).body.data.status).toBe("DECLINED");
      expect(await decisionOf(s.session_id)).toMatchObject({
        status: "DECLINED",
        svc_id: svcId,
        identity: { svc_id: svcId, shared: false, full_name: null, licenses: [], verified_at: null, stale: false },
      });
      expect((await decisionOf(unbound.session_id)).identity).toBeNull();
    });
  });

  it("another person's face against the enrolled face fails face match; no reuse without an enrolled face", async () => {
    const tokens = await exchange(await authorize({ cfg: prodConfig, redirectUri: PROD_REDIRECT }), prodConfig);
    const svcId = tokens.claims()!.sub;
    // Person B proves a document only: no enrolled face yet, so a face-match workflow asks for the document again.
    const docOnly = await createWorkflow(t, ["id_verification"]);
    const first = await createSession(t, { workflow_id: docOnly, svc_access_token: tokens.access_token });
    expect(checkOf(await postDocument(first.session_token, "b"), "id_verification").status).toBe("passed");
    expect((await finish(first.session_token)).body.data.status).toBe("APPROVED");
    const noFace = await createSession(t, { workflow_id: kyc, svc_access_token: tokens.access_token });
    const f = await api("GET", "/api/v2/flow", { headers: sessionBearer(noFace.session_token) });
    expect(f.body.data.steps.find((x: { type: string }) => x.type === "id_verification")).toMatchObject({ status: "pending", reused: false });
    // B's face enrolled (the portrait B's licence carries), then person A performs the liveness.
    expect(checkOf(await postDocument(noFace.session_token, "b"), "id_verification").status).toBe("passed");
    const { loadJsonArtifact } = await import("@/lib/artifacts/artifacts");
    const { sealJson } = await import("@/lib/crypto/encryption");
    const portraitOfB = await loadJsonArtifact(noFace.session_id, "portrait_template");
    await sql(shared().env, "INSERT INTO account_proofs (id, account_id, kind, key, verified_at, sealed, updated_at) VALUES (gen_random_uuid()::text, $1, 'face', '', now(), $2, now())", [svcId, Buffer.from(sealJson(portraitOfB))]);
    const s = await createSession(t, { workflow_id: kyc, svc_access_token: tokens.access_token });
    const live = await postBurst(s.session_token);
    expect(checkOf(live, "liveness").status).toBe("passed");
    expect(checkOf(live, "face_match")).toMatchObject({ status: "failed", data: { reference: "enrolled_face" }, error: { code: "face_mismatch" } });
    expect((await finish(s.session_token)).body.data.status).toBe("DECLINED");
  });
});

