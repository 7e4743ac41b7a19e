import { createHash, hkdfSync, randomBytes, randomUUID } from "node:crypto";
import { createLocalJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealBytes } from "@/lib/crypto/encryption";
import { keyIdOf } from "@/lib/config/key-format";
import { licenceNumberKey } from "@/lib/licence-registries/registry-index";
import { licenceProofKey, type LicenceProof } from "@/lib/identity/proofs";
import { api, bearer, checkOf, createTenant, keyHeader, type Tenant } from "../support/api";
import { cli, runCli } from "../support/cli";
import { createTestDatabase, sql, type TestDatabase } from "../support/database";
import { fixture, imageForm } from "../support/images";
import { LOCAL_RECEIVER_NETWORKS, TestReceiver } from "../support/receiver";
import { startServer, type RunningServer } from "../support/server";

/**
 * Rotating ENCRYPTION_KEY (docs/operations.md "Rotating the encryption key"), on a
 * production server of its own and its own database: data sealed under K1
 * (a webhook secret, a stored idempotent response, an account's proofs, the
 * OIDC signing key, the pseudonym key, an imported licence registry, a face
 * enrolled in the 1:N gallery) is read by a server holding K2 with K1 in
 * ENCRYPTION_KEY_PREVIOUS; `svc keys:rotate` re-seals it (a second run:
 * nothing); then a server holding K2 alone still reads all of it, and what
 * people and relying parties see is unchanged: the webhook is signed with the
 * same secret, the pseudonym is the same, the replayed response is the same,
 * the OIDC key (same kid) still signs, the 1:N search still finds the face.
 */
const K1 = randomBytes(32).toString("hex");
const K2 = randomBytes(32).toString("base64");
const K1_BYTES = Buffer.from(K1, "hex");
const K2_BYTES = Buffer.from(K2, "base64");

let database: TestDatabase;
let server: RunningServer | null = null;
let tenant: Tenant;
const receiver = new TestReceiver();

const envWith = (keys: Record<string, string>) => ({
  ...database.env,
  ...keys,
  WEBHOOK_RETRY_SCHEDULE: "0,1,1",
  WEBHOOK_POLL_MS: "100",
  CREDENTIAL_CACHE_MS: "0",
  ...LOCAL_RECEIVER_NETWORKS,
});
/** A purpose's key derived from K, as the server derives it (lib/crypto/encryption-key.ts). */
const derived = (key: Buffer, purpose: string) => Buffer.from(hkdfSync("sha256", key, "", purpose, 32));
const LICENCE: LicenceProof = {
  license_type: "Physician and Surgeon",
  license_number: "SMB-10001",
  state: "CA",
  issuing_authority: "Sample Medical Board",
  status: "active",
  registry_status: "Active",
  expires_on: "2030-06-30",
};
const licenceProofUnder = (key: Buffer) => licenceProofKey(LICENCE, derived(key, "licence-proof-key"));

const ONLY_K1 = () => envWith({ ENCRYPTION_KEY: K1 });
const K2_AND_K1 = () => envWith({ ENCRYPTION_KEY: K2, ENCRYPTION_KEY_PREVIOUS: K1 });
const ONLY_K2 = () => envWith({ ENCRYPTION_KEY: K2 });

async function restart(env: Record<string, string>) {
  await server?.stop();
  server = await startServer(env);
}

const idempotencyKey = `rotate-${randomUUID()}`;
let sessionBody: Record<string, unknown>;
let firstAnswer: { status: number; body: unknown };
const accountId = randomUUID();
const newerLicenceProof = randomUUID();
const accessToken = `at_${randomBytes(24).toString("base64url")}`;

/** A retry of the first session create: answered from the stored (sealed) response. */
async function replay() {
  const res = await api("POST", "/api/v2/session", { base: server!.url, headers: { ...keyHeader(tenant), "Idempotency-Key": idempotencyKey }, json: sessionBody });
  return { status: res.status, body: res.body };
}

async function pseudonym(): Promise<string> {
  const res = await api("GET", `/api/v2/identity?svc_id=${accountId}`, { base: server!.url, headers: keyHeader(tenant) });
  expect(res.status, res.text).toBe(200);
  return res.body.data.identity.pseudonym;
}

/** A predicate credential: signed by the provider's active key (its private part sealed), checked against the JWKS that discovery names. */
async function signedCredentialKid(): Promise<string> {
  const res = await fetch(`${server!.url}/api/auth/oidc/credential`, {
    method: "POST",
    headers: { authorization: `Bearer ${accessToken}`, "content-type": "application/json" },
    body: "{}",
  });
  const body = (await res.json()) as any;
  expect(res.status, JSON.stringify(body)).toBe(200);
  const discovery = (await (await fetch(`${server!.url}/.well-known/openid-configuration`)).json()) as { jwks_uri: string };
  const jwks = (await (await fetch(discovery.jwks_uri)).json()) as any;
  const issuerSigned = String(body.data.credential).split("~")[0]!;
  const { protectedHeader } = await jwtVerify(issuerSigned, createLocalJWKSet(jwks));
  return protectedHeader.kid!;
}

/** A test event through the webhook: it arrives signed with the secret given at creation (the receiver verifies it). */
async function deliveredTestEvent(webhookId: string, env: Record<string, string>) {
  const sent = await cli(["webhook:test", "--webhook", webhookId, "--kind", "approved"], env);
  await receiver.waitFor((r) => r.processed.some((e) => e.event_id === sent.event_id));
  const got = receiver.received.find((r) => r.event?.event_id === sent.event_id)!;
  expect(got.status).toBe(200);
  expect(got.error).toBeUndefined();
}

/** A face_uniqueness step of a new session on person A's selfie: the 1:N search over the gallery, sealed codes and templates. */
async function uniquenessCheck(): Promise<{ status: string; data: { duplicate: boolean; svc_uuid: string } }> {
  const created = await api("POST", "/api/v2/session", { base: server!.url, headers: keyHeader(tenant), json: { workflow_id: faceWorkflowId } });
  expect(created.status, created.text).toBe(201);
  const res = await api("POST", "/api/v2/face-uniqueness", {
    base: server!.url,
    headers: bearer(created.body.data.session_token),
    form: imageForm({ image: fixture("faces", "a-still", "1.jpg") }),
  });
  expect(res.status, res.text).toBe(200);
  return checkOf(res, "face_uniqueness");
}

let webhookId = "";
let pseudonymBefore = "";
let kidBefore = "";
let faceWorkflowId = "";
let enrolledFace = "";

beforeAll(async () => {
  database = await createTestDatabase("keyrot");
  await receiver.start();
  await restart(ONLY_K1());
  tenant = await createTenant(ONLY_K1());
  const hook = await cli(["webhook:create", "--app", tenant.appId, "--url", receiver.url, "--approve"], ONLY_K1());
  webhookId = hook.webhook_id;
  receiver.secret = hook.secret;

  const workflow = await api("POST", "/api/v2/workflows", { base: server!.url, headers: keyHeader(tenant), json: { name: "rotation", features: ["liveness"] } });
  expect(workflow.status).toBe(201);
  sessionBody = { workflow_id: workflow.body.data.workflow.id, vendor_data: "rotation-user" };
  firstAnswer = await replay();
  expect(firstAnswer.status).toBe(201);

  // An account that proved its face and shared it with the app, and an access token of it (scope zkp), as a sign-in leaves them.
  const env = ONLY_K1();
  await sql(env, "INSERT INTO accounts (id, email, email_verified_at, updated_at) VALUES ($1, $2, now(), now())", [accountId, `${accountId}@example.com`]);
  await sql(env, "INSERT INTO account_proofs (id, account_id, kind, key, verified_at, sealed, updated_at) VALUES ($1, $2, 'face', '', now(), $3, now())", [
    randomUUID(),
    accountId,
    Buffer.from(sealJsonUnder(K1_BYTES, { template: [0.1, 0.2] })),
  ]);
  await sql(env, "INSERT INTO account_shares (account_id, app_id, first_shared_at, last_shared_at) VALUES ($1, $2, now(), now())", [accountId, tenant.appId]);
  const grantId = randomUUID();
  await sql(env, "INSERT INTO oidc_grants (id, app_id, account_id, scope, auth_time, expires_at) VALUES ($1, $2, $3, 'openid zkp', now(), now() + interval '1 day')", [grantId, tenant.appId, accountId]);
  await sql(env, "INSERT INTO oidc_access_tokens (token_hash, grant_id, scope, expires_at) VALUES ($1, $2, 'openid zkp', now() + interval '1 day')", [
    createHash("sha256").update(accessToken).digest("hex"),
    grantId,
  ]);

  // The same licence proven under K1 (here) and again under K2 during the rotation (below): keys:rotate keeps the newer.
  await sql(env, "INSERT INTO account_proofs (id, account_id, kind, key, verified_at, sealed, updated_at) VALUES ($1, $2, 'licence', $3, now() - interval '1 day', $4, now())", [
    randomUUID(),
    accountId,
    licenceProofUnder(K1_BYTES),
    Buffer.from(sealJsonUnder(K1_BYTES, LICENCE)),
  ]);
  await cli(["registry:import", "--file", "registry/samples/sample-medical-board.csv", "--provider", "rotation-board", "--name", "Sample Medical Board", "--state", "CA"], env);

  // A face enrolled in the app's 1:N gallery under K1: its template and search code sealed under K1.
  const faceWorkflow = await api("POST", "/api/v2/workflows", { base: server!.url, headers: keyHeader(tenant), json: { name: "unique", features: ["face_uniqueness"] } });
  expect(faceWorkflow.status).toBe(201);
  faceWorkflowId = faceWorkflow.body.data.workflow.id;
  const enrolled = await uniquenessCheck();
  expect(enrolled).toMatchObject({ status: "passed", data: { duplicate: false, enrolled: true } });
  enrolledFace = enrolled.data.svc_uuid;

  pseudonymBefore = await pseudonym();
  kidBefore = await signedCredentialKid();
  await deliveredTestEvent(webhookId, ONLY_K1());
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await receiver.stop();
  await database?.drop();
});

/** A JSON value sealed under one key, as a server holding that key as ENCRYPTION_KEY seals it (sealJson). */
const sealJsonUnder = (key: Buffer, value: unknown) => sealBytes(Buffer.from(JSON.stringify(value), "utf8"), key);

/** Sealed values of the database not under `kid`, per column. */
async function notUnder(kid: string, env: Record<string, string>) {
  const [row] = await sql(env, `SELECT
      (SELECT count(*)::int FROM webhook_endpoints WHERE secret_encrypted NOT LIKE $1) AS webhooks,
      (SELECT count(*)::int FROM idempotency_records WHERE response_body LIKE 'v%' AND response_body NOT LIKE $1) AS idempotency,
      (SELECT count(*)::int FROM oidc_signing_keys WHERE private_jwk_encrypted NOT LIKE $1) AS signing_keys,
      (SELECT count(*)::int FROM account_proofs WHERE substring(sealed from 4 for 4) <> decode($2, 'hex')) AS proofs,
      (SELECT count(*)::int FROM key_material WHERE substring(sealed from 4 for 4) <> decode($2, 'hex')) AS key_material,
      (SELECT count(*)::int FROM face_identities WHERE substring(template_sealed from 4 for 4) <> decode($2, 'hex')
                                                   OR substring(search_code from 4 for 4) <> decode($2, 'hex')) AS faces`,
  [`v2.${kid}.%`, kid]);
  return row;
}

describe("rotating ENCRYPTION_KEY with svc keys:rotate", () => {
  it("a server with the new key and the old one as ENCRYPTION_KEY_PREVIOUS reads what the old key sealed, and seals under the new one", async () => {
    await restart(K2_AND_K1());
    expect(await replay()).toEqual(firstAnswer);
    expect(await pseudonym()).toBe(pseudonymBefore);
    expect(await signedCredentialKid()).toBe(kidBefore);
    await deliveredTestEvent(webhookId, K2_AND_K1());
    // The search index opened the codes sealed under K1, the decision the template: the same person is a duplicate.
    expect(await uniquenessCheck()).toMatchObject({ status: "failed", data: { duplicate: true, svc_uuid: enrolledFace } });
    // New values are sealed under K2 at once (a new stored response), old ones wait for keys:rotate.
    const other = await api("POST", "/api/v2/session", { base: server!.url, headers: { ...keyHeader(tenant), "Idempotency-Key": `new-${randomUUID()}` }, json: sessionBody });
    expect(other.status).toBe(201);
    const [stored] = await sql(K2_AND_K1(), "SELECT count(*)::int AS n FROM idempotency_records WHERE response_body LIKE $1", [`v2.${keyIdOf(K2_BYTES)}.%`]);
    expect(stored.n).toBe(1);
    await sql(K2_AND_K1(), "INSERT INTO account_proofs (id, account_id, kind, key, verified_at, sealed, updated_at) VALUES ($1, $2, 'licence', $3, now(), $4, now())", [
      newerLicenceProof,
      accountId,
      licenceProofUnder(K2_BYTES),
      Buffer.from(sealJsonUnder(K2_BYTES, LICENCE)),
    ]);
  });

  it("keys:rotate refuses to run without the old key in ENCRYPTION_KEY_PREVIOUS", async () => {
    const refused = await runCli(["keys:rotate"], ONLY_K2());
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("ENCRYPTION_KEY_PREVIOUS");
    expect(await notUnder(keyIdOf(K2_BYTES), K2_AND_K1())).toMatchObject({ webhooks: 1, idempotency: 1, key_material: 1, faces: 1 });
  });

  it("re-seals every value under the new key, counting them per column; a second run re-seals nothing", async () => {
    const kid2 = keyIdOf(K2_BYTES);
    const [registry] = await sql(K2_AND_K1(), "SELECT count(*)::int AS n FROM registry_licences");
    expect(registry.n).toBeGreaterThan(2);
    const first = await cli(["keys:rotate", "--batch-size", "2"], K2_AND_K1());
    expect(first).toMatchObject({ key_id: kid2, previous_key_ids: [keyIdOf(K1_BYTES)] });
    expect(first.columns["webhook_endpoints.secret_encrypted"].resealed).toBe(1);
    expect(first.columns["oidc_signing_keys.private_jwk_encrypted"].resealed).toBeGreaterThanOrEqual(1);
    expect(first.columns["idempotency_records.response_body"].resealed).toBe(1);
    expect(first.columns["account_proofs.sealed"].resealed).toBe(1);
    expect(first.columns["key_material.sealed"].resealed).toBe(1);
    expect(first.columns["account_proofs.sealed"].superseded).toBe(1);
    expect(first.columns["registry_licences.sealed"].resealed).toBe(registry.n);
    expect(first.columns["face_identities.template_sealed"].resealed).toBe(1);
    expect(first.columns["face_identities.search_code"].resealed).toBe(1);
    // The registry's index keys were made again under K2: a lookup by number finds the licence with no re-import.
    const numberKeyUnder = (key: Buffer) => licenceNumberKey("smb-10001", derived(key, "licence-registry-index"));
    const [found] = await sql(K2_AND_K1(), "SELECT count(*) FILTER (WHERE number_key = $1)::int AS k2, count(*) FILTER (WHERE number_key = $2)::int AS k1 FROM registry_licences", [
      numberKeyUnder(K2_BYTES),
      numberKeyUnder(K1_BYTES),
    ]);
    expect(found).toEqual({ k2: 1, k1: 0 });
    const licences = await sql(K2_AND_K1(), "SELECT id FROM account_proofs WHERE account_id = $1 AND kind = 'licence'", [accountId]);
    expect(licences).toEqual([{ id: newerLicenceProof }]);
    expect(first.resealed).toBeGreaterThanOrEqual(7);
    expect(await notUnder(kid2, K2_AND_K1())).toEqual({ webhooks: 0, idempotency: 0, signing_keys: 0, proofs: 0, key_material: 0, faces: 0 });

    const second = await cli(["keys:rotate"], K2_AND_K1());
    expect(second.resealed).toBe(0);
    for (const counts of Object.values(second.columns)) expect(counts).toEqual({ resealed: 0, superseded: 0, unreadable: 0 });
  });

  it("then a server with the new key alone reads everything, and nothing people or relying parties see has changed", async () => {
    await restart(ONLY_K2());
    expect(await replay()).toEqual(firstAnswer);
    expect(await pseudonym()).toBe(pseudonymBefore);
    expect(await signedCredentialKid()).toBe(kidBefore);
    await deliveredTestEvent(webhookId, ONLY_K2());
    // A fresh index loads every code re-sealed under K2, and the 1:N search still finds the enrolled face.
    expect(await uniquenessCheck()).toMatchObject({ status: "failed", data: { duplicate: true, svc_uuid: enrolledFace } });
  });
});
