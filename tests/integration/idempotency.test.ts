import { createHash, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTenant, createWorkflow, keyHeader, shared, type ApiResponse, type Tenant } from "../support/api";
import { fixture, imageForm } from "../support/images";
import { sql } from "../support/database";
import { useServerDatabase } from "../support/domain";
import { startServer, type RunningServer } from "../support/server";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { startNppes, type TestNppes } from "../support/nppes-server";
import { clientHeaders, seedTenantResources, type TenantResources } from "../support/tenant-resources";

useServerDatabase();

let tenant: Tenant;
beforeAll(async () => {
  tenant = await createTenant();
});

async function workflowsNamed(t: Tenant, name: string) {
  const res = await api("GET", "/api/v2/workflows", { headers: keyHeader(t) });
  return res.body.data.workflows.filter((w: { name: string }) => w.name === name);
}

/**
 * Leaves a claim on `key` as a request mid-flight (lock still held) or one
 * whose process died (lock lapsed) would. The request hash is the wrapper's
 * fingerprint: sha256 of "<METHOD> <path>\n<raw body>".
 */
async function holdKey(key: string, body: unknown, lock: "held" | "lapsed") {
  const hash = createHash("sha256").update(`POST /api/v2/workflows\n${JSON.stringify(body)}`).digest("hex");
  await sql(
    shared().env,
    `INSERT INTO idempotency_records (id, scope, key, method, path, request_hash, state, locked_until, expires_at)
     VALUES ($1, $2, $3, 'POST', '/api/v2/workflows', $4, 'in_progress', now() + $5::interval, now() + interval '1 day')`,
    [randomUUID(), `app:${tenant.appId}`, key, hash, lock === "held" ? "1 minute" : "-1 second"],
  );
}

function post(t: Tenant, key: string, json: unknown) {
  return api("POST", "/api/v2/workflows", { headers: { ...keyHeader(t), "Idempotency-Key": key }, json });
}

describe("Idempotency-Key (spec 8)", () => {
  it("replays the first response for the same key and body, running once", async () => {
    const key = randomUUID();
    const body = { name: `replay-${key}`, features: ["liveness"] };
    const first = await post(tenant, key, body);
    expect(first.status).toBe(201);
    const second = await post(tenant, key, body);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    expect(await workflowsNamed(tenant, body.name)).toHaveLength(1);
  });

  it("the same key with a different body is 422 idempotency_key_reused", async () => {
    const key = randomUUID();
    expect((await post(tenant, key, { name: `a-${key}`, features: ["liveness"] })).status).toBe(201);
    const res = await post(tenant, key, { name: `b-${key}`, features: ["liveness"] });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, data: [], error: { code: "idempotency_key_reused" } });
    expect(await workflowsNamed(tenant, `b-${key}`)).toHaveLength(0);
  });

  it("a retry while the first is still running is 409 idempotency_in_progress", async () => {
    const key = randomUUID();
    const body = { name: `busy-${key}`, features: ["liveness"] };
    await holdKey(key, body, "held");
    const res = await post(tenant, key, body);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ success: false, data: [], error: { code: "idempotency_in_progress" } });
    expect(await workflowsNamed(tenant, body.name)).toHaveLength(0);
  });

  it("a claim left by a crashed request is taken over once its lock lapses", async () => {
    const key = randomUUID();
    const body = { name: `crashed-${key}`, features: ["liveness"] };
    await holdKey(key, body, "lapsed");
    const res = await post(tenant, key, body);
    expect(res.status).toBe(201);
    expect(await workflowsNamed(tenant, body.name)).toHaveLength(1);
  });

  it("concurrent duplicates never both execute", async () => {
    const key = randomUUID();
    const body = { name: `race-${key}`, features: ["face_match"] };
    const results = await Promise.all(Array.from({ length: 12 }, () => post(tenant, key, body)));
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    expect(statuses).toContain(201);
    const ids = new Set(results.filter((r) => r.status === 201).map((r) => r.body.data.workflow.id));
    expect(ids.size).toBe(1);
    expect(await workflowsNamed(tenant, body.name)).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 409)) {
      expect(r.body.error.code).toBe("idempotency_in_progress");
    }
  });

  it("a request that fails validation does not use up its key", async () => {
    const key = randomUUID();
    const bad = await post(tenant, key, { name: "", features: [] });
    expect(bad.status).toBe(400);
    const good = await post(tenant, key, { name: `fixed-${key}`, features: ["liveness"] });
    expect(good.status).toBe(201);
  });

  it("keys are scoped per app", async () => {
    const other = await createTenant();
    const key = randomUUID();
    const body = { name: `scoped-${key}`, features: ["liveness"] };
    const mine = await post(tenant, key, body);
    const theirs = await post(other, key, body);
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    expect(theirs.body.data.workflow.id).not.toBe(mine.body.data.workflow.id);
  });

  it("an unusable key is 400 invalid_request", async () => {
    const res = await post(tenant, "x".repeat(256), { name: "long key", features: ["liveness"] });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.data.errors).toHaveProperty("Idempotency-Key");
  });

  it("without a key, each POST runs", async () => {
    const name = `nokey-${randomUUID()}`;
    await api("POST", "/api/v2/workflows", { headers: keyHeader(tenant), json: { name, features: ["liveness"] } });
    await api("POST", "/api/v2/workflows", { headers: keyHeader(tenant), json: { name, features: ["liveness"] } });
    expect(await workflowsNamed(tenant, name)).toHaveLength(2);
  });

  it("records are forgotten after 24 hours by the background sweep", async () => {
    const { purgeExpiredIdempotencyRecords } = await import("@/lib/http/idempotency");
    const [old, live] = [randomUUID(), randomUUID()];
    await sql(
      shared().env,
      `INSERT INTO idempotency_records (id, scope, key, method, path, request_hash, state, locked_until, expires_at)
       VALUES ($1, 'app:x', $1, 'POST', '/p', 'h', 'completed', now(), now() - interval '1 second'),
              ($2, 'app:x', $2, 'POST', '/p', 'h', 'completed', now(), now() + interval '1 day')`,
      [old, live],
    );
    expect(await purgeExpiredIdempotencyRecords()).toBeGreaterThanOrEqual(1);
    const left = await sql(shared().env, `SELECT id FROM idempotency_records WHERE id IN ($1, $2)`, [old, live]);
    expect(left).toEqual([{ id: live }]);
  });
});

describe("stored responses hold no secret in clear", () => {
  it("a session create replays its session_token, while the stored record only holds it sealed", async () => {
    const workflow = (await post(tenant, randomUUID(), { name: `sealed-${randomUUID()}`, features: ["location"] })).body.data.workflow.id;
    const key = randomUUID();
    const headers = { ...keyHeader(tenant), "Idempotency-Key": key };
    const first = await api("POST", "/api/v2/session", { headers, json: { workflow_id: workflow } });
    expect(first.status).toBe(201);
    const token: string = first.body.data.session_token;
    expect(token).toMatch(/^st_/);
    const [record] = await sql(shared().env, `SELECT response_body FROM idempotency_records WHERE scope = $1 AND key = $2`, [
      `app:${tenant.appId}`,
      key,
    ]);
    expect(record.response_body).not.toContain(token);
    expect(record.response_body).not.toContain(first.body.data.session_id);
    const replay = await api("POST", "/api/v2/session", { headers, json: { workflow_id: workflow } });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.data.session_token).toBe(token);
  });
});

describe("Idempotency-Key on the hosted flow's POSTs (session token scope)", () => {
  async function hostedSession() {
    const workflow = (await post(tenant, randomUUID(), { name: `flow-${randomUUID()}`, features: ["location"] })).body.data.workflow.id;
    const created = await api("POST", "/api/v2/session", { headers: keyHeader(tenant), json: { workflow_id: workflow } });
    return created.body.data.session_token as string;
  }
  const flow = (token: string, path: string, key: string, json?: unknown) =>
    api("POST", path, { headers: { Authorization: `Bearer ${token}`, "Idempotency-Key": key }, json });

  it("a retried step replays its answer instead of running twice; another body under the key is refused", async () => {
    const token = await hostedSession();
    const key = randomUUID();
    const first = await flow(token, "/api/v2/location", key, { lat: 48.86, lng: 2.35 });
    expect(first.status).toBe(200);
    const again = await flow(token, "/api/v2/location", key, { lat: 48.86, lng: 2.35 });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    const [{ attempts }] = await sql(
      shared().env,
      `SELECT c.attempts FROM check_results c JOIN sessions s ON s.id = c.session_id WHERE s.session_token_hash = encode(sha256($1::bytea), 'hex')`,
      [token],
    );
    expect(attempts).toBe(1);
    const other = await flow(token, "/api/v2/location", key, { lat: 51.5, lng: -0.12 });
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe("idempotency_key_reused");
  });

  it("a retried finish replays the decision it made, though the session is closed by then", async () => {
    const token = await hostedSession();
    await flow(token, "/api/v2/location", randomUUID(), { lat: 48.86, lng: 2.35 });
    const key = randomUUID();
    const finished = await flow(token, "/api/v2/flow/finish", key);
    expect(finished.status).toBe(200);
    const retried = await flow(token, "/api/v2/flow/finish", key);
    expect(retried.status).toBe(200);
    expect(retried.headers.get("idempotent-replayed")).toBe("true");
    expect(retried.body).toEqual(finished.body);
    // A new request (another key, or none) is answered the decided outcome
    // (finish is idempotent by outcome: a retry whose claim was lost with a
    // database outage gets it too), while any other step is refused.
    const again = await flow(token, "/api/v2/flow/finish", randomUUID());
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect(again.body).toEqual(finished.body);
    const plain = await api("POST", "/api/v2/flow/finish", { headers: { Authorization: `Bearer ${token}` } });
    expect(plain.body).toEqual(finished.body);
    expect((await flow(token, "/api/v2/location", randomUUID(), { lat: 1, lng: 1 })).body.error.code).toBe("session_closed");
  });

  it("keys of one session are not another session's", async () => {
    const [a, b] = [await hostedSession(), await hostedSession()];
    const key = randomUUID();
    expect((await flow(a, "/api/v2/location", key, { lat: 1, lng: 1 })).status).toBe(200);
    const other = await flow(b, "/api/v2/location", key, { lat: 1, lng: 1 });
    expect(other.status).toBe(200);
    expect(other.headers.get("idempotent-replayed")).toBeNull();
  });
});

/**
 * A request whose effect commits but whose answer is never stored (the
 * process dies, or the database goes away, between the two) must not run
 * its effect again on a retry with the same key. The fault is injected in
 * the database: for an armed key, the first claim's completion (its answer
 * being stored) fails as a lost connection does. What was done with it must
 * then be undone too; the retry runs once, and later retries replay it.
 * Emails are jobs queued with the effect: this file's server has SMTP
 * configured (its worker is off, so nothing is sent and the jobs are counted).
 */
describe("exactly once when the answer is lost with the process (production app)", { timeout: 180_000 }, () => {
  let smtp: TestSmtp;
  let server: RunningServer;
  let t: Tenant;
  let r: TenantResources;
  const env = () => shared().env;
  const count = async (text: string, values: unknown[]) => Number((await sql(env(), text, values))[0]!.n);
  /** Mail jobs of one queue for one member, pending or done. */
  const mailJobs = (queue: string, memberId: string) =>
    count(
      `SELECT count(*) AS n FROM (SELECT name, data FROM pgboss.job UNION ALL SELECT name, data FROM pgboss.archive) j WHERE j.name = $1 AND j.data->>'member_id' = $2`,
      [queue, memberId],
    );

  beforeAll(async () => {
    await sql(env(), "CREATE SCHEMA IF NOT EXISTS test_faults");
    await sql(env(), "CREATE TABLE IF NOT EXISTS test_faults.lose_answer (key text PRIMARY KEY, record_id text)");
    // The claim (its own statement) notes which record is the key's first; storing that record's answer then fails.
    await sql(
      env(),
      `CREATE OR REPLACE FUNCTION test_faults.lose_first_answer() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF TG_OP = 'INSERT' THEN
           UPDATE test_faults.lose_answer SET record_id = NEW.id WHERE key = NEW.key AND record_id IS NULL;
         ELSIF NEW.state = 'completed' AND EXISTS (SELECT 1 FROM test_faults.lose_answer WHERE record_id = NEW.id) THEN
           RAISE EXCEPTION 'terminating connection (test fault: the answer was lost)' USING ERRCODE = '57P01';
         END IF;
         RETURN NEW;
       END $$`,
    );
    await sql(env(), "DROP TRIGGER IF EXISTS lose_first_answer ON idempotency_records");
    await sql(env(), "CREATE TRIGGER lose_first_answer BEFORE INSERT OR UPDATE ON idempotency_records FOR EACH ROW EXECUTE FUNCTION test_faults.lose_first_answer()");
    smtp = await startSmtp();
    server = await startServer({ ...env(), SMTP_HOST: smtp.host, SMTP_PORT: String(smtp.port) });
    t = await createTenant(undefined, "production");
    r = await seedTenantResources(t);
  }, 180_000);

  afterAll(async () => {
    await sql(env(), "DROP TRIGGER IF EXISTS lose_first_answer ON idempotency_records");
    await sql(env(), "DROP SCHEMA IF EXISTS test_faults CASCADE");
    await server?.stop();
    await smtp?.stop();
  });

  const call = (auth: "key" | "client", path: string, json?: unknown) => (key: string) =>
    api("POST", path, { base: server.url, headers: { ...(auth === "key" ? keyHeader(t) : clientHeaders(t)), "Idempotency-Key": key }, json });

  /** `effects` counts what one run does (each goes up by one); the lost answer leaves them as they were. */
  async function runsOnce(send: (key: string) => Promise<ApiResponse>, status: number, effects: () => Promise<number[]>) {
    const key = randomUUID();
    await sql(env(), "INSERT INTO test_faults.lose_answer (key) VALUES ($1)", [key]);
    const before = await effects();
    const lost = await send(key);
    expect([lost.status, lost.body.error?.code]).toEqual([503, "service_unavailable"]);
    expect(await effects()).toEqual(before);
    const first = await send(key);
    expect(first.status, first.text).toBe(status);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const once = before.map((n) => n + 1);
    expect(await effects()).toEqual(once);
    const again = await send(key);
    expect(again.status).toBe(status);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await effects()).toEqual(once);
    return first.body.data;
  }

  it("an invite re-send: one new link, one email", async () => {
    const sent = await runsOnce(call("client", `/api/sdk/members/${r.invitedMember.memberId}/invite`, { notify: true }), 200, async () => [
      await mailJobs("member-invitation-email", r.invitedMember.memberId),
    ]);
    expect(sent).toMatchObject({ notified: true, member: { member_id: r.invitedMember.memberId } });
  });

  it("a recovery session: one session, one email", async () => {
    const memberId = r.boundMember.memberId;
    const started = await runsOnce(call("client", "/api/sdk/recovery/session", { svcId: r.account.id, variant: "without_id" }), 200, async () => [
      await count("SELECT count(*) AS n FROM sessions WHERE vendor_data = $1", [`recovery:${memberId}`]),
      await mailJobs("member-recovery-email", memberId),
    ]);
    expect(started).toMatchObject({ eligible: true, emailed: true, status: "NOT_STARTED" });
  });

  it("a webhook test event: one event, delivered once", async () => {
    const sent = await runsOnce(call("key", `/api/v2/webhooks/${r.webhook.id}/test`, { kind: "approved" }), 202, async () => [
      await count("SELECT count(*) AS n FROM webhook_events WHERE app_id = $1 AND test", [t.appId]),
      await count("SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = $1", [r.webhook.id]),
    ]);
    expect(sent).toMatchObject({ kind: "approved", deliveries: 1 });
  });

  it("a delivery resend: one new delivery", async () => {
    const resent = await runsOnce(call("key", `/api/v2/webhooks/deliveries/${r.delivery.id}/resend`), 202, async () => [
      await count("SELECT count(*) AS n FROM webhook_deliveries WHERE event_id = $1", [r.delivery.eventId]),
    ]);
    expect(resent).toMatchObject({ event_id: r.delivery.eventId, resent_from: r.delivery.id });
  });

  it("creating a session, a workflow, members: one each (and one invitation email)", async () => {
    const vendorData = `lost-${randomUUID()}`;
    await runsOnce(call("key", "/api/v2/session", { workflow_id: r.workflowId, vendor_data: vendorData }), 201, async () => [
      await count("SELECT count(*) AS n FROM sessions WHERE vendor_data = $1", [vendorData]),
    ]);
    const name = `lost-${randomUUID()}`;
    await runsOnce(call("key", "/api/v2/workflows", { name, features: ["liveness"] }), 201, async () => [
      await count("SELECT count(*) AS n FROM workflows WHERE name = $1", [name]),
    ]);
    const email = `lost-${randomUUID()}@example.com`;
    const added = await runsOnce(call("client", "/api/sdk/members", { members: [{ email }], invite: "email" }), 201, async () => [
      await count("SELECT count(*) AS n FROM members WHERE email = $1", [email]),
      await count(
        `SELECT count(*) AS n FROM pgboss.job j JOIN members m ON m.member_id = j.data->>'member_id' WHERE j.name = 'member-invitation-email' AND m.email = $1`,
        [email],
      ),
    ]);
    expect(added).toMatchObject({ notified: true, created: [{ email }] });
  });
});

/**
 * A claim is a lease renewed while its request runs (IDEMPOTENCY_CLAIM_MS).
 * This file's server leases for 2 s, and its licence registry (a local
 * server speaking the NPPES API) holds its answer until the test releases
 * it: a keyed licence lookup slower than several leases, for exactly as
 * long as the test needs. A retry sent after the first lease would have
 * lapsed is 409, not a second run; once the first answers, the retry
 * replays it, and the registry was asked once.
 */
describe("issue 33: a slow request keeps its Idempotency-Key (production app)", { timeout: 240_000 }, () => {
  const LEASE_MS = 2_000;
  let server: RunningServer;
  let nppes: TestNppes;
  beforeAll(async () => {
    nppes = await startNppes();
    server = await startServer({ ...shared().env, IDEMPOTENCY_CLAIM_MS: String(LEASE_MS), NPPES_BASE_URL: nppes.url, REGISTRY_TIMEOUT_MS: "60000" });
  });
  afterAll(async () => {
    await server?.stop();
    await nppes?.stop();
  });

  it("a retry after the lease would have lapsed is 409 idempotency_in_progress while the first still runs; then it replays", async () => {
    const call = (method: string, p: string, options: Parameters<typeof api>[2]) => api(method, p, { base: server.url, ...options });
    const wf = await createWorkflow(tenant, ["credential"]);
    const created = await call("POST", "/api/v2/session", { headers: keyHeader(tenant), json: { workflow_id: wf } });
    const token = created.body.data.session_token as string;
    const bearer = { Authorization: `Bearer ${token}` };
    const doc = await call("POST", "/api/v2/document", {
      headers: bearer,
      form: imageForm({ front: fixture("documents", "licence-a-front.jpg"), back: fixture("documents", "licence-a-back.jpg") }, { document_type: "driving_licence" }),
    });
    expect(doc.status).toBe(200);
    const key = randomUUID();
    const lookUp = () =>
      call("POST", "/api/v2/credential", {
        headers: { ...bearer, "Idempotency-Key": key },
        json: { credential_code: "nppes-ca-physician", fields: { npi_number: "1234567893", license_number: "A123456" } },
      });
    nppes.behaviour = "hold";
    const first = lookUp();
    first.catch(() => {}); // awaited below; a failure before that must not go unhandled
    await expect.poll(() => nppes.queries.length, { timeout: 30_000 }).toBe(1);
    // The claim has outlived two leases (renewed every third of one) while the registry holds the first request.
    await new Promise((r) => setTimeout(r, 2 * LEASE_MS + 500));
    const [row] = await sql(shared().env, "SELECT state, locked_until > now() AS held FROM idempotency_records WHERE key = $1", [key]);
    expect(row).toEqual({ state: "in_progress", held: true });
    const retry = await lookUp();
    expect(retry.status, `retry answered ${retry.headers.get("idempotent-replayed") ? "by a replay" : "by a second run"}`).toBe(409);
    expect(retry.body).toMatchObject({ success: false, error: { code: "idempotency_in_progress" } });
    nppes.behaviour = "ok";
    nppes.release();
    const done = await first;
    expect(done.status).toBe(200);
    const replay = await lookUp();
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(done.body);
    expect(nppes.queries).toHaveLength(1);
  });
});
