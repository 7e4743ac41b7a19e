import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, bearer as tokenHeader, createTenant, createWorkflow, keyHeader, shared, type Tenant } from "../support/api";
import { cli } from "../support/cli";
import { sql } from "../support/database";
import { useServerDatabase } from "../support/domain";
import { fixture, imageForm } from "../support/images";
import { startNppes, type NppesRecord, type TestNppes } from "../support/nppes-server";
import { authorize, bearer, exchange, provider, useDefaultClient, useOidcProvider } from "../support/oidc-flow";
import { freePort } from "../support/server";

/**
 * Professional licences end to end (issue 16, README "Professional
 * licences"), on a production server of this file's own (NODE_ENV
 * production, a production app with an https redirect URI) whose NPPES
 * adapter talks to a local server speaking the NPPES API 2.1, and a board's
 * export imported with `svc registry:import` (registry/samples/). Person A
 * of the fixture documents is JORDAN SAMPLE: his real driving licence
 * passes id_verification first, and the registry's holder must be him.
 */
useServerDatabase();
const nppesPort = await freePort();
// JOB_WORKER on, as in production: this server schedules the daily re-check.
useOidcProvider({ NPPES_BASE_URL: `http://127.0.0.1:${nppesPort}/api/`, REGISTRY_TIMEOUT_MS: "1500", JOB_WORKER: "on" });

const PROVIDER = "sample-board";
const SAMPLE = "registry/samples/sample-medical-board.csv";
const BOARD = "Sample State Board of Medicine (fictitious)";
const REDIRECT = "https://rp.example/callback";
const JORDAN_NPI = "1234567893";
const OTHER_NPI = "1234567901";
const NEAR_NPI = "1234567919";

const NPPES_RECORDS: NppesRecord[] = [
  {
    number: JORDAN_NPI,
    enumeration_type: "NPI-1",
    basic: { first_name: "JORDAN", last_name: "SAMPLE", credential: "M.D.", status: "A", enumeration_date: "2015-03-02", last_updated: "2025-06-01" },
    taxonomies: [
      { code: "207R00000X", desc: "Internal Medicine", state: "CA", license: "A123456", primary: true },
      { code: "163W00000X", desc: "Registered Nurse", state: "NV", license: "RN998", primary: false },
    ],
  },
  {
    number: OTHER_NPI,
    enumeration_type: "NPI-1",
    basic: { first_name: "PAT", last_name: "OTHERPERSON", credential: "M.D.", status: "A", enumeration_date: "2016-01-01", last_updated: "2025-01-01" },
    taxonomies: [{ code: "207Q00000X", desc: "Family Medicine", state: "CA", license: "B765432", primary: true }],
  },
  {
    // One letter from the fixture person's name: a sibling, a namesake or a typo, for a person to judge.
    number: NEAR_NPI,
    enumeration_type: "NPI-1",
    basic: { first_name: "JORDON", last_name: "SAMPLE", credential: "M.D.", status: "A", enumeration_date: "2017-01-01", last_updated: "2025-01-01" },
    taxonomies: [{ code: "207R00000X", desc: "Internal Medicine", state: "CA", license: "C111222", primary: true }],
  },
];

let nppes: TestNppes;
let t: Tenant;
const op = () => provider().op.url;
const env = () => shared().env;

beforeAll(async () => {
  nppes = await startNppes(NPPES_RECORDS, nppesPort);
  await cli(["registry:import", "--file", SAMPLE, "--provider", PROVIDER, "--name", BOARD, "--state", "CA"], env());
  t = await createTenant(env(), "production");
  await cli(["app:redirect-uri", "--app", t.appId, "--uri", REDIRECT], env());
  await cli(["app:scopes", "--app", t.appId, "--scopes", "openid profile verifications doctor_license"], env());
});
afterAll(async () => {
  await nppes?.stop();
});

const v2 = (method: string, p: string, options: Parameters<typeof api>[2] = {}) => api(method, p, { base: op(), ...options });

async function licenceSession(settings: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  const wf = await createWorkflow(t, ["credential"], { settings: { credential: { max_attempts: 10, ...settings } } });
  const res = await v2("POST", "/api/v2/session", { headers: keyHeader(t), json: { workflow_id: wf, redirect_url: "https://shop.example/done", ...extra } });
  expect(res.status).toBe(201);
  return res.body.data as { session_id: string; session_token: string };
}

async function passDocument(token: string) {
  const doc = await v2("POST", "/api/v2/document", {
    headers: tokenHeader(token),
    form: imageForm({ front: fixture("documents", "licence-a-front.jpg"), back: fixture("documents", "licence-a-back.jpg") }, { document_type: "driving_licence" }),
  });
  expect(doc.status).toBe(200);
  expect(doc.body.data.checks.find((c: { type: string }) => c.type === "id_verification").status).toBe("passed");
}

const lookUp = (token: string, body: Record<string, unknown>) => v2("POST", "/api/v2/credential", { headers: tokenHeader(token), json: body });
const board = (number: string) => ({ credential_code: `${PROVIDER}-phy`, fields: { license_number: number } });
const npi = (npiNumber: string, licence: string) => ({ credential_code: "nppes-ca-physician", fields: { npi_number: npiNumber, license_number: licence } });

async function finish(token: string) {
  const res = await v2("POST", "/api/v2/flow/finish", { headers: tokenHeader(token) });
  expect(res.status).toBe(200);
  return res.body.data.status as string;
}

async function decision(sessionId: string) {
  const res = await v2("GET", `/api/v2/session/${sessionId}/decision`, { headers: keyHeader(t) });
  expect(res.status).toBe(200);
  return res.body.data;
}

async function credentialCharges(sessionId: string) {
  return sql(env(), "SELECT amount_cents FROM ledger_entries WHERE reference = $1", [`check:${sessionId}:credential`]);
}

describe("credential discovery (spec 2.6, 4.4)", () => {
  it("lists the states with a provider and each state's credentials keyed by credential_code; 401 without a key, 404 for an unknown state", async () => {
    expect((await v2("GET", "/api/v2/credential/states")).status).toBe(401);
    const states = await v2("GET", "/api/v2/credential/states", { headers: keyHeader(t) });
    expect(states.status).toBe(200);
    expect(states.body.data.states).toContainEqual({ state_name: "California", state_code: "CA" });
    // NPPES is national: every state and territory has it.
    expect(states.body.data.states).toHaveLength(56);
    const names = states.body.data.states.map((s: { state_name: string }) => s.state_name);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b)));

    const ca = await v2("GET", "/api/v2/credential/states/ca/providers", { headers: keyHeader(t) });
    expect(ca.status).toBe(200);
    const providers = ca.body.data.providers as Array<Record<string, unknown>>;
    expect(providers).toContainEqual({
      provider_code: PROVIDER,
      provider_display_name: BOARD,
      credential_code: `${PROVIDER}-phy`,
      credential_name: "Physician and Surgeon",
      state_code: "CA",
      remote_code: "PHY",
      required_fields: ["license_number"],
    });
    expect(providers).toContainEqual({
      provider_code: "nppes",
      provider_display_name: "NPPES NPI Registry (CMS)",
      credential_code: "nppes-ca-physician",
      credential_name: "Physician (MD/DO)",
      state_code: "CA",
      remote_code: "207,208",
      required_fields: ["npi_number", "license_number"],
    });
    // provider_code repeats (one provider, many credentials); credential_code never does.
    const codes = providers.map((p) => p.credential_code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(providers.filter((p) => p.provider_code === "nppes").length).toBeGreaterThan(1);

    for (const unknown of ["ZZ", "C", "california"]) {
      const res = await v2("GET", `/api/v2/credential/states/${unknown}/providers`, { headers: keyHeader(t) });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: { code: "not_found" } });
    }
    expect((await v2("GET", "/api/v2/credential/states/CA/providers")).status).toBe(401);
  });

  it("the hosted page's discovery is narrowed to the workflow's license_types, and another type is refused", async () => {
    const s = await licenceSession({ license_types: ["Registered Nurse"] });
    const flow = await v2("GET", "/api/v2/flow", { headers: tokenHeader(s.session_token) });
    const step = flow.body.data.steps.find((x: { type: string }) => x.type === "credential");
    expect(step.input).toEqual({
      endpoint: "/api/v2/credential",
      states_endpoint: "/api/v2/flow/credential/states",
      license_types: ["Registered Nurse"],
      max_attempts: 10,
    });
    const ca = await v2("GET", "/api/v2/flow/credential/states/CA/providers", { headers: tokenHeader(s.session_token) });
    expect(ca.status).toBe(200);
    expect(new Set(ca.body.data.providers.map((p: { credential_name: string }) => p.credential_name))).toEqual(new Set(["Registered Nurse"]));
    await passDocument(s.session_token);
    const other = await lookUp(s.session_token, board("SMB-10001"));
    expect(other.status).toBe(400);
    expect(other.body.error.code).toBe("invalid_request");
    expect(other.body.data.errors).toHaveProperty("license_type");
  });
});

describe("the credential check on an imported board registry", () => {
  it("kyc_required until the document passed; bad input is 400 and nothing is recorded", async () => {
    const s = await licenceSession();
    const early = await lookUp(s.session_token, board("SMB-10001"));
    expect(early.status).toBe(400);
    expect(early.body).toMatchObject({ success: false, error: { code: "kyc_required" } });
    await passDocument(s.session_token);
    const empty = await lookUp(s.session_token, board("  "));
    expect(empty.status).toBe(400);
    expect(empty.body.data.errors).toHaveProperty(["fields.license_number"]);
    const extra = await lookUp(s.session_token, { credential_code: `${PROVIDER}-phy`, fields: { license_number: "SMB-10001", npi_number: JORDAN_NPI } });
    expect(extra.status).toBe(400);
    expect(extra.body.data.errors).toHaveProperty(["fields.npi_number"]);
    const unknown = await lookUp(s.session_token, { credential_code: "no-such-credential", fields: {} });
    expect(unknown.status).toBe(400);
    const [{ n }] = await sql(env(), "SELECT count(*)::int AS n FROM check_results WHERE session_id = $1 AND type = 'credential'", [s.session_id]);
    expect(n).toBe(0);
  });

  it("not found, another person's licence, expired, suspended: each fails and says why; the last result decides DECLINED; billed once", async () => {
    const s = await licenceSession();
    await passDocument(s.session_token);

    const notFound = await lookUp(s.session_token, board("SMB-99999"));
    expect(notFound.status).toBe(200);
    expect(notFound.body.data.checks[0]).toMatchObject({ type: "credential", status: "failed", data: { match: false, license: null }, error: { code: "license_not_found" } });

    const theirs = await lookUp(s.session_token, board("SMB-10004"));
    expect(theirs.body.data.checks[0]).toMatchObject({ status: "failed", data: { match: false, license: null }, error: { code: "license_holder_mismatch" } });
    // Nothing about another person's licence is returned.
    expect(theirs.text).not.toMatch(/OTHERPERSON|2030-06-30/);

    // Spec 2.6 selection (provider_code + license_type + state_code), and a number typed differently.
    const expired = await lookUp(s.session_token, { provider_code: PROVIDER, license_type: "physician and surgeon", state_code: "ca", fields: { license_number: "smb 10002" } });
    expect(expired.body.data.checks[0]).toMatchObject({
      status: "failed",
      data: { match: true, license: { status: "expired", expires_at: "2025-01-31T23:59:59.999Z" }, license_type: "Physician and Surgeon", state: "CA" },
      error: { code: "license_expired" },
    });

    const suspended = await lookUp(s.session_token, board("SMB-10003"));
    expect(suspended.body.data.checks[0]).toMatchObject({ status: "failed", data: { match: true, license: { status: "suspended" } }, error: { code: "license_inactive" } });
    expect(suspended.body.data.attempts_left).toBe(6);

    expect(await finish(s.session_token)).toBe("DECLINED");
    const d = await decision(s.session_id);
    expect(d.checks.find((c: { type: string }) => c.type === "credential")).toMatchObject({
      status: "failed",
      data: { match: true, license: { status: "suspended", expires_at: "2030-06-30T23:59:59.999Z" } },
      error: { code: "license_inactive" },
    });
    expect(d.verifications.credential).toEqual({ status: "failed" });
    expect(await credentialCharges(s.session_id)).toHaveLength(1);
    // The session's stored results hold no licence number or holder name in clear.
    const stored = await sql(env(), "SELECT data::text AS data, evidence::text AS evidence FROM check_results WHERE session_id = $1", [s.session_id]);
    expect(JSON.stringify(stored)).not.toMatch(/SMB-1000|OTHERPERSON/);
  });

  it.each([
    ["not in the registry", "SMB-99999", "license_not_found"],
    ["another person's", "SMB-10004", "license_holder_mismatch"],
    ["expired", "SMB-10002", "license_expired"],
    ["revoked", "SMB-10005", "license_inactive"],
  ])("a licence %s, as the only result: DECLINED with %s", async (_, number, code) => {
    const s = await licenceSession();
    await passDocument(s.session_token);
    expect((await lookUp(s.session_token, board(number))).body.data.checks[0].error.code).toBe(code);
    expect(await finish(s.session_token)).toBe("DECLINED");
    expect((await decision(s.session_id)).checks.find((c: { type: string }) => c.type === "credential")).toMatchObject({ status: "failed", error: { code } });
  });

  it("an active licence in the person's name passes -> APPROVED; a passed licence is not looked up again; lookups are limited", async () => {
    const s = await licenceSession({ max_attempts: 2 });
    await passDocument(s.session_token);
    const miss = await lookUp(s.session_token, board("SMB-00000"));
    expect(miss.body.data).toMatchObject({ checks: [{ status: "failed" }], attempts_left: 1 });
    const ok = await lookUp(s.session_token, board("SMB-10001"));
    expect(ok.body.data.checks[0]).toEqual({
      type: "credential",
      status: "passed",
      data: {
        match: true,
        license: { status: "active", expires_at: "2030-06-30T23:59:59.999Z" },
        license_type: "Physician and Surgeon",
        state: "CA",
        provider_code: PROVIDER,
        credential_code: `${PROVIDER}-phy`,
      },
      error: null,
    });
    const again = await lookUp(s.session_token, board("SMB-10001"));
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("credential_already_verified");
    expect(await finish(s.session_token)).toBe("APPROVED");
    expect(await credentialCharges(s.session_id)).toHaveLength(1);

    const limited = await licenceSession({ max_attempts: 2 });
    await passDocument(limited.session_token);
    for (let i = 0; i < 2; i++) expect((await lookUp(limited.session_token, board(`SMB-0000${i}`))).status).toBe(200);
    const over = await lookUp(limited.session_token, board("SMB-10001"));
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ success: false, data: { max_attempts: 2 }, error: { code: "too_many_attempts" } });
  });
});

describe("the credential check under pressure", () => {
  it("lookups at the same time never exceed max_attempts, and one that passed is never replaced", async () => {
    const s = await licenceSession({ max_attempts: 2 });
    await passDocument(s.session_token);
    const answers = await Promise.all([board("SMB-10001"), board("SMB-00001"), board("SMB-00002"), board("SMB-00003"), board("SMB-10001")].map((b) => lookUp(s.session_token, b)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((x) => x === 200).length).toBeLessThanOrEqual(2);
    expect(statuses.every((x) => [200, 409, 429].includes(x))).toBe(true);
    const [{ n }] = await sql(env(), "SELECT count(*)::int AS n FROM credential_lookups WHERE session_id = $1", [s.session_id]);
    expect(n).toBeLessThanOrEqual(2);
    // Whatever the order, a passed lookup's result stands.
    const passed = answers.some((a) => a.status === 200 && a.body.data.checks[0].status === "passed");
    const [row] = await sql(env(), "SELECT status FROM check_results WHERE session_id = $1 AND type = 'credential'", [s.session_id]);
    if (passed) expect(row.status).toBe("passed");
  });

  it("a document retaken after the licence passed voids it unless it is the same person's", async () => {
    const s = await licenceSession();
    await passDocument(s.session_token);
    expect((await lookUp(s.session_token, board("SMB-10001"))).body.data.checks[0].status).toBe("passed");
    // The same person's document again: the licence stands.
    await passDocument(s.session_token);
    const [same] = await sql(env(), "SELECT status FROM check_results WHERE session_id = $1 AND type = 'credential'", [s.session_id]);
    expect(same.status).toBe("passed");
    // Another person's document (RILEY EXAMPLE): the licence was Jordan's, so it no longer counts.
    const other = await v2("POST", "/api/v2/document", {
      headers: tokenHeader(s.session_token),
      form: imageForm({ front: fixture("documents", "licence-b-front.jpg"), back: fixture("documents", "licence-b-back.jpg") }, { document_type: "driving_licence" }),
    });
    expect(other.status).toBe(200);
    const flow = await v2("GET", "/api/v2/flow", { headers: tokenHeader(s.session_token) });
    expect(flow.body.data.steps.find((x: { type: string }) => x.type === "credential").status).toBe("failed");
    expect(await finish(s.session_token)).toBe("DECLINED");
    expect((await decision(s.session_id)).checks.find((c: { type: string }) => c.type === "credential")).toMatchObject({
      status: "failed",
      data: { match: false, license: null },
      error: { code: "license_holder_mismatch" },
    });
  });
});

describe("the credential check through NPPES", () => {
  it("an NPI whose taxonomy in the chosen state lists the licence passes; a wrong check digit is 400 before any lookup", async () => {
    const s = await licenceSession();
    await passDocument(s.session_token);
    const asked = nppes.queries.length;
    const bad = await lookUp(s.session_token, npi("1234567890", "A123456"));
    expect(bad.status).toBe(400);
    expect(bad.body.data.errors["fields.npi_number"]).toEqual([expect.stringMatching(/check digit/)]);
    expect(nppes.queries.length).toBe(asked);

    // Listed in NV, not in CA: not found for California.
    const elsewhere = await lookUp(s.session_token, { credential_code: "nppes-ca-registered-nurse", fields: { npi_number: JORDAN_NPI, license_number: "RN998" } });
    expect(elsewhere.body.data.checks[0]).toMatchObject({ status: "failed", error: { code: "license_not_found" } });
    const theirs = await lookUp(s.session_token, npi(OTHER_NPI, "B765432"));
    expect(theirs.body.data.checks[0]).toMatchObject({ status: "failed", error: { code: "license_holder_mismatch" } });
    const ok = await lookUp(s.session_token, npi(JORDAN_NPI, "a123456"));
    expect(ok.body.data.checks[0]).toMatchObject({
      status: "passed",
      data: { match: true, license: { status: "active", expires_at: null }, license_type: "Physician (MD/DO)", provider_code: "nppes" },
    });
    expect(nppes.queries.slice(asked)).toEqual([JORDAN_NPI, OTHER_NPI, JORDAN_NPI]);
    expect(await finish(s.session_token)).toBe("APPROVED");
  });

  it("a holder whose name is one letter off goes to review, and the reviewer sees both names and what was typed", async () => {
    const s = await licenceSession();
    await passDocument(s.session_token);
    const near = await lookUp(s.session_token, npi(NEAR_NPI, "C111222"));
    expect(near.body.data.checks[0]).toMatchObject({ status: "review", data: { match: null, license: null }, error: { code: "license_holder_uncertain" } });
    expect(near.text).not.toContain("JORDON");
    expect(await finish(s.session_token)).toBe("IN_REVIEW");
    const { reviewItems } = await import("@/lib/sessions/review-view");
    const prisma = await (await import("@/lib/db/client")).db();
    const [item] = await reviewItems([await prisma.session.findUniqueOrThrow({ where: { id: s.session_id } })]);
    expect(item!.licence).toMatchObject({
      provider_code: "nppes",
      credential_code: "nppes-ca-physician",
      inputs: { npi_number: NEAR_NPI, license_number: "C111222" },
      verified_name: "JORDAN SAMPLE",
      registry_name: "JORDON SAMPLE",
    });
    expect(item!.can_approve).toBe(false); // no face checks in this workflow (spec 3.1): review can only decline
  });

  it("a registry that times out, fails or talks nonsense: review, not billed; the person may try again; finishing goes to IN_REVIEW", async () => {
    const s = await licenceSession();
    await passDocument(s.session_token);
    try {
      for (const behaviour of ["timeout", "http_500", "garbage"] as const) {
        nppes.behaviour = behaviour;
        const res = await lookUp(s.session_token, npi(JORDAN_NPI, "A123456"));
        expect(res.status).toBe(200);
        expect(res.body.data.checks[0]).toMatchObject({ status: "review", data: { match: null, license: null }, error: { code: "registry_unavailable" } });
        // An outage does not use up the person's tries.
        expect(res.body.data.attempts_left).toBe(10);
      }
    } finally {
      nppes.behaviour = "ok";
    }
    expect(await credentialCharges(s.session_id)).toHaveLength(0);
    expect(await finish(s.session_token)).toBe("IN_REVIEW");
    const d = await decision(s.session_id);
    expect(d.checks.find((c: { type: string }) => c.type === "credential")).toMatchObject({ status: "review", error: { code: "registry_unavailable" } });
  });
});

describe("a verified licence as a reusable proof", () => {
  let config: client.Configuration;
  beforeAll(async () => {
    config = await client.discovery(new URL(op()), t.clientId, t.clientSecret, undefined, { execute: [client.allowInsecureRequests] });
    useDefaultClient(config, REDIRECT);
  });

  it("appears in the identity read and OIDC; never after its expiry; gone after a re-check finds it revoked", async () => {
    const tokens = await exchange(await authorize({ scope: "openid profile verifications doctor_license" }));
    const sub = tokens.claims()!.sub;
    const s = await licenceSession({}, { svc_access_token: tokens.access_token });
    await passDocument(s.session_token);
    expect((await lookUp(s.session_token, board("SMB-10006"))).body.data.checks[0].status).toBe("passed");
    expect(await finish(s.session_token)).toBe("APPROVED");

    const licence = {
      license_type: "Physician and Surgeon",
      status: "active",
      registry_status: "Active",
      license_number: "SMB-10006",
      state: "CA",
      issuing_authority: BOARD,
      expires_on: "2030-06-30",
    };
    const identity = await v2("GET", `/api/v2/identity?svc_id=${sub}`, { headers: keyHeader(t) });
    expect(identity.status).toBe(200);
    expect(identity.body.data.identity.licenses).toEqual([licence]);
    expect((await decision(s.session_id)).identity.licenses).toEqual([
      { license_type: "Physician and Surgeon", license_state: "CA", status: "active", expire_date: "2030-06-30" },
    ]);
    const released = await bearer("/api/auth/oidc/licenses", tokens.access_token);
    expect(released.body.data.licenses).toEqual([{ type: "Physician and Surgeon", number: "SMB-10006", status: "active", expires_on: "2030-06-30", issuer: BOARD }]);
    const verifications = await bearer("/api/auth/oidc/verifications", tokens.access_token);
    expect(verifications.body.data.verifications.licenses).toEqual([
      { license_type: "Physician and Surgeon", verified: true, verified_from: expect.any(String), expire_at: "2030-06-30T23:59:59.999Z" },
    ]);
    // The proof is sealed: the account's stored proofs hold no number in clear.
    const proofs = await sql(env(), "SELECT encode(sealed, 'escape') AS sealed, key FROM account_proofs WHERE account_id = $1 AND kind = 'licence'", [sub]);
    expect(proofs).toHaveLength(1);
    expect(proofs[0].sealed).not.toContain("SMB-10006");
    expect(proofs[0].key).not.toMatch(/SMB|10006/);

    // Past its expiry date (the clock moved on, in this process's reads): never served.
    const { setClock } = await import("@/lib/clock");
    const { readIdentity } = await import("@/lib/identity/read-identity");
    const { readAccountProofs } = await import("@/lib/accounts/account-proofs");
    const { decisionIdentity } = await import("@/lib/identity/read-identity");
    const { identityPredicates } = await import("@/lib/identity/predicates");
    const { readProfile } = await import("@/lib/identity/profile");
    const prisma = await (await import("@/lib/db/client")).db();
    const app = await prisma.app.findUniqueOrThrow({ where: { id: t.appId } });
    const session = await prisma.session.findUniqueOrThrow({ where: { id: s.session_id } });
    const readsAt = async (at: Date) => {
      setClock({ now: () => at });
      try {
        return {
          identity: (await readIdentity(app, { svc_id: sub })).identity.licenses,
          decision: (await decisionIdentity(session))!.licenses,
          proofs: (await readAccountProofs(sub)).licences,
          licenceValid: identityPredicates(await readProfile(sub, at), at).licence_valid,
        };
      } finally {
        setClock(null);
      }
    };
    expect(await readsAt(new Date(Date.now() + 86_400_000))).toMatchObject({ identity: [licence], licenceValid: true });
    expect(await readsAt(new Date("2030-07-01T00:00:00Z"))).toEqual({
      identity: [],
      decision: [],
      proofs: [expect.objectContaining({ state: "expired", valid: false, servable: false })],
      licenceValid: false,
    });
    // Not confirmed by its registry for more than 7 days (the re-check could not reach it): not served either.
    expect(await readsAt(new Date(Date.now() + 8 * 86_400_000))).toMatchObject({ identity: [], decision: [], licenceValid: false });

    // The board revokes it; the daily re-check (the worker's scheduled job, run here by its CLI command) finds out.
    await expect.poll(async () => sql(env(), "SELECT cron FROM pgboss.schedule WHERE name = 'licence-recheck'"), { timeout: 30_000 }).toEqual([{ cron: "30 3 * * *" }]);
    const revoked = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "svc-registry-")), "board.csv");
    fs.writeFileSync(revoked, fs.readFileSync(SAMPLE, "utf8").replace(/^(SMB-10006,.*?),Active,/m, "$1,Revoked,"));
    expect(fs.readFileSync(revoked, "utf8")).toMatch(/^SMB-10006,.*,Revoked,/m);
    await cli(["registry:import", "--file", revoked, "--provider", PROVIDER, "--name", BOARD, "--state", "CA"], env());
    // Confirmed at approval: a re-check the same day skips it.
    expect(await cli(["licences:recheck"], env())).toMatchObject({ lapsed: 0 });
    expect((await bearer("/api/auth/oidc/licenses", tokens.access_token)).body.data.licenses).toHaveLength(1);
    const summary = await cli(["licences:recheck", "--force"], env());
    expect(summary.lapsed).toBeGreaterThanOrEqual(1);
    expect((await bearer("/api/auth/oidc/licenses", tokens.access_token)).body.data.licenses).toEqual([]);
    const after = await v2("GET", `/api/v2/identity?svc_id=${sub}`, { headers: keyHeader(t) });
    expect(after.status).toBe(200); // the document proof is still valid
    expect(after.body.data.identity.licenses).toEqual([]);
    const lapsed = await bearer("/api/auth/oidc/verifications", tokens.access_token);
    expect(lapsed.body.data.verifications.licenses).toEqual([expect.objectContaining({ license_type: "Physician and Surgeon", verified: false })]);
    // Put the sample back for the other tests of this file and the suite.
    await cli(["registry:import", "--file", SAMPLE, "--provider", PROVIDER, "--name", BOARD, "--state", "CA"], env());
  });
});
