import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession, createTenant, createWorkflow, shared, type Tenant } from "../support/api";
import { cli } from "../support/cli";
import { sql } from "../support/database";
import { useServerDatabase } from "../support/domain";
import { TestReceiver } from "../support/receiver";

/**
 * Webhook delivery against real local receivers (spec 6). The shared test
 * server retries on a 0,1,1,1-second schedule instead of the production one.
 */
useServerDatabase();

const env = () => shared().env;
const receivers: TestReceiver[] = [];
afterAll(async () => Promise.all(receivers.map((r) => r.stop())));

async function receiverFor(t: Tenant, options: { callbackOnly?: boolean } = {}) {
  const receiver = await new TestReceiver().start();
  receivers.push(receiver);
  const hook = await cli(["webhook:create", "--app", t.appId, "--url", receiver.url, ...(options.callbackOnly ? [] : ["--approve"])], env());
  receiver.secret = hook.secret;
  return { receiver, webhookId: hook.webhook_id as string };
}

/** A session of `workflowId` taken to APPROVED through the domain layer (as the checks would). */
async function approvedSession(t: Tenant, workflowId: string, body: Record<string, unknown> = {}) {
  const { recordCheckResult } = await import("@/lib/sessions/record-check");
  const { completeSession } = await import("@/lib/sessions/complete-session");
  const s = await createSession(t, { workflow_id: workflowId, vendor_data: "wh", ...body });
  await recordCheckResult({ sessionId: s.session_id, type: "liveness", status: "passed" });
  await completeSession(s.session_id);
  return s.session_id;
}

/**
 * Resolves once no delivery of the app (or of one event) is pending: none
 * can send anything more, so what the receiver got is final.
 */
async function deliveriesSettled(appId: string, eventId?: string) {
  const pending = async () =>
    Number((await sql(env(), "SELECT count(*) AS n FROM webhook_deliveries WHERE app_id = $1 AND state = 'pending' AND ($2::text IS NULL OR event_id = $2)", [appId, eventId ?? null]))[0].n);
  await expect.poll(pending, { timeout: 30_000 }).toBe(0);
}

const deliveries = (appId: string) => cli(["webhook:deliveries", "--app", appId], env()).then((r) => r.deliveries as any[]);

describe("webhook delivery", () => {
  let t: Tenant;
  let workflowId: string;
  beforeAll(async () => {
    t = await createTenant();
    workflowId = await createWorkflow(t, ["liveness"]);
  });

  it("a terminal session is POSTed, signed, with the spec's headers and payload", async () => {
    const { receiver } = await receiverFor(t);
    const sessionId = await approvedSession(t, workflowId);
    await receiver.waitFor((r) => r.processed.some((e) => e.session_id === sessionId));
    const got = receiver.received.find((r) => r.event?.session_id === sessionId)!;
    expect(got.status).toBe(200);
    expect(got.headers["x-svc-event-id"]).toBe(got.event!.event_id);
    expect(got.headers["x-svc-signature"]).toMatch(/^[0-9a-f]{64}$/);
    expect(Math.abs(Number(got.headers["x-svc-timestamp"]) - Date.now() / 1000)).toBeLessThan(60);
    expect(JSON.parse(got.body)).toEqual({
      event_id: expect.stringMatching(/^evt_/),
      type: "verification.approved",
      session_id: sessionId,
      status: "APPROVED",
      vendor_data: "wh",
      decision: "approved",
      occurred_at: expect.any(String),
    });
  });

  it("a receiver failing with 500 three times gets exactly one successful delivery, every attempt logged", async () => {
    const other = await createTenant();
    const wf = await createWorkflow(other, ["liveness"]);
    const { receiver } = await receiverFor(other);
    receiver.failNext = 3;
    const sessionId = await approvedSession(other, wf);
    await receiver.waitFor((r) => r.processed.length === 1);
    await deliveriesSettled(other.appId); // nothing more arrives
    expect(receiver.received.map((r) => r.status)).toEqual([500, 500, 500, 200]);
    expect(receiver.processed.map((e) => e.session_id)).toEqual([sessionId]);
    const [delivery] = await deliveries(other.appId);
    expect(delivery).toMatchObject({ state: "succeeded", attempt_count: 4, last_status: 200, session_id: sessionId });
    expect(delivery.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 500, 500, 200]);
    expect(delivery.attempts.map((a: { outcome: string }) => a.outcome)).toEqual(["failed", "failed", "failed", "succeeded"]);
    // The receiver is on loopback (allowed by WEBHOOK_ALLOWED_NETWORKS): its status is shown, never its answer.
    expect(delivery.attempts[0]).toMatchObject({ number: 1, status_code: 500, response_snippet: null, error: null });
    for (const a of delivery.attempts) {
      expect(Date.parse(a.ended_at)).toBeGreaterThanOrEqual(Date.parse(a.started_at));
      expect(a.duration_ms).toEqual(expect.any(Number));
    }
  });

  it("gives up after the last attempt and marks the delivery failed", async () => {
    const other = await createTenant();
    const wf = await createWorkflow(other, ["liveness"]);
    const { receiver } = await receiverFor(other);
    receiver.failNext = 100;
    await approvedSession(other, wf);
    await receiver.waitFor((r) => r.received.length === 4);
    await deliveriesSettled(other.appId);
    expect(receiver.received).toHaveLength(4);
    const [delivery] = await deliveries(other.appId);
    expect(delivery).toMatchObject({ state: "failed", attempt_count: 4, last_status: 500, next_attempt_at: null });
  });

  it("a per-session callback goes only to that URL; without one, to every approved webhook", async () => {
    const other = await createTenant();
    const wf = await createWorkflow(other, ["liveness"]);
    const a = await receiverFor(other);
    const b = await receiverFor(other);
    const viaCallback = await approvedSession(other, wf, { callback: a.receiver.url });
    const broadcast = await approvedSession(other, wf);
    await a.receiver.waitFor((r) => r.processed.length === 2);
    await b.receiver.waitFor((r) => r.processed.length === 1);
    await deliveriesSettled(other.appId);
    expect(a.receiver.processed.map((e) => e.session_id).sort()).toEqual([viaCallback, broadcast].sort());
    expect(b.receiver.processed.map((e) => e.session_id)).toEqual([broadcast]);
  });

  it("resend delivers the same event id again as a new delivery", async () => {
    const other = await createTenant();
    const wf = await createWorkflow(other, ["liveness"]);
    const { receiver } = await receiverFor(other);
    await approvedSession(other, wf);
    await receiver.waitFor((r) => r.received.length === 1);
    const [first] = await deliveries(other.appId);
    const resent = await cli(["webhook:resend", "--delivery", first.delivery_id], env());
    expect(resent).toMatchObject({ event_id: first.event_id, resent_from: first.delivery_id });
    await receiver.waitFor((r) => r.received.length === 2);
    expect(receiver.received[1]!.headers["x-svc-event-id"]).toBe(first.event_id);
    expect(receiver.received[1]!.duplicate).toBe(true);
    // The POST has arrived; its outcome is recorded once the worker has the answer.
    await deliveriesSettled(other.appId);
    const all = await deliveries(other.appId);
    expect(all.map((d) => d.state)).toEqual(["succeeded", "succeeded"]);
  });

  it("after a secret rotation deliveries are signed with the new secret", async () => {
    const other = await createTenant();
    const { receiver, webhookId } = await receiverFor(other);
    const rotated = await cli(["webhook:rotate-secret", "--webhook", webhookId], env());
    expect(rotated.secret).not.toBe(receiver.secret);
    const sent = await cli(["webhook:test", "--webhook", webhookId, "--kind", "approved"], env());
    await receiver.waitFor((r) => r.received.length >= 1);
    expect(receiver.received[0]!.status).toBe(400); // the receiver still holds the old secret
    receiver.secret = rotated.secret;
    await receiver.waitFor((r) => r.processed.some((e) => e.event_id === sent.event_id)); // a retry verifies
  });
});

describe("test events (spec 6 test tooling)", () => {
  let t: Tenant;
  let hook: Awaited<ReturnType<typeof receiverFor>>;
  beforeAll(async () => {
    t = await createTenant();
    hook = await receiverFor(t);
  });

  it.each([
    ["approved", "APPROVED", "verification.approved"],
    ["declined", "DECLINED", "verification.completed"],
    ["in_review", "IN_REVIEW", "verification.completed"],
    ["expired", "EXPIRED", "verification.completed"],
  ])("%s: a signed event with test: true and a sess_test_ session id, touching no session", async (kind, status, type) => {
    const before = await sql(env(), `SELECT count(*)::int AS n FROM sessions WHERE app_id = $1`, [t.appId]);
    const sent = await cli(["webhook:test", "--webhook", hook.webhookId, "--kind", kind], env());
    await hook.receiver.waitFor((r) => r.processed.some((e) => e.event_id === sent.event_id));
    const event = hook.receiver.processed.find((e) => e.event_id === sent.event_id)!;
    expect(event).toMatchObject({ test: true, status, type, decision: status.toLowerCase() });
    expect(event.session_id).toMatch(/^sess_test_[0-9a-f]{24}$/);
    const after = await sql(env(), `SELECT count(*)::int AS n FROM sessions WHERE app_id = $1`, [t.appId]);
    expect(after).toEqual(before);
    expect(await sql(env(), `SELECT 1 FROM sessions WHERE id = $1`, [event.session_id])).toHaveLength(0);
  });

  it("duplicate: the same event id arrives twice and is processed once", async () => {
    const sent = await cli(["webhook:test", "--webhook", hook.webhookId, "--kind", "duplicate"], env());
    expect(sent.deliveries).toBe(2);
    await hook.receiver.waitFor((r) => r.received.filter((x) => x.event?.event_id === sent.event_id).length === 2);
    const copies = hook.receiver.received.filter((x) => x.event?.event_id === sent.event_id);
    expect(copies.map((c) => c.duplicate).sort()).toEqual([false, true]);
    expect(hook.receiver.processed.filter((e) => e.event_id === sent.event_id)).toHaveLength(1);
  });

  it("bad_signature: the receiver answers 400 and the delivery is not retried", async () => {
    const sent = await cli(["webhook:test", "--webhook", hook.webhookId, "--kind", "bad_signature"], env());
    await hook.receiver.waitFor((r) => r.received.some((x) => x.headers["x-svc-event-id"] === sent.event_id));
    await deliveriesSettled(t.appId, sent.event_id);
    const got = hook.receiver.received.filter((x) => x.headers["x-svc-event-id"] === sent.event_id);
    expect(got.map((g) => g.status)).toEqual([400]);
    expect(got[0]!.error).toBe("invalid signature");
    const log = await deliveries(t.appId);
    expect(log.find((d) => d.event_id === sent.event_id)).toMatchObject({ state: "failed", last_status: 400, test: true, bad_signature: true, forgery: "refused" });
    expect(log.filter((d) => !d.bad_signature).every((d) => d.forgery === null)).toBe(true);
  });

  it("bad_signature: a receiver that answers 2xx to the forgery is reported as failing the test, though the delivery succeeded", async () => {
    hook.receiver.acceptUnverified = true;
    try {
      const sent = await cli(["webhook:test", "--webhook", hook.webhookId, "--kind", "bad_signature"], env());
      await hook.receiver.waitFor((r) => r.received.some((x) => x.headers["x-svc-event-id"] === sent.event_id && x.status === 200));
      const delivery = async () => (await deliveries(t.appId)).find((d) => d.event_id === sent.event_id);
      await expect.poll(async () => (await delivery())?.state, { timeout: 15_000 }).toBe("succeeded");
      expect(await delivery()).toMatchObject({ state: "succeeded", last_status: 200, bad_signature: true, forgery: "accepted" });
    } finally {
      hook.receiver.acceptUnverified = false;
    }
  });

  it("rejects an unknown kind", async () => {
    const { runCli } = await import("../support/cli");
    const res = await runCli(["webhook:test", "--webhook", hook.webhookId, "--kind", "exploded"], env());
    expect(res.code).toBe(2);
  });
});

describe("webhook tooling over the API (for the portal and for scripts)", () => {
  it("lists webhooks without secrets, sends test events, shows the delivery log and resends; other apps get 404", async () => {
    const { api, keyHeader } = await import("../support/api");
    const t = await createTenant();
    const { receiver, webhookId } = await receiverFor(t);
    const list = await api("GET", "/api/v2/webhooks", { headers: keyHeader(t) });
    expect(list.body.data.webhooks).toEqual([
      { webhook_id: webhookId, url: receiver.url, approved: true, active: true, created_at: expect.any(String), previous_secret_expires_at: null },
    ]);
    expect(list.text).not.toContain("whsec_");

    const sent = await api("POST", `/api/v2/webhooks/${webhookId}/test`, { headers: keyHeader(t), json: { kind: "declined" } });
    expect(sent.status).toBe(202);
    await receiver.waitFor((r) => r.processed.some((e) => e.event_id === sent.body.data.event_id));

    const log = await api("GET", "/api/v2/webhooks/deliveries", { headers: keyHeader(t) });
    const [delivery] = log.body.data.deliveries;
    expect(delivery).toMatchObject({ event_id: sent.body.data.event_id, state: "succeeded", test: true, webhook_id: webhookId });
    const resent = await api("POST", `/api/v2/webhooks/deliveries/${delivery.delivery_id}/resend`, { headers: keyHeader(t) });
    expect(resent.status).toBe(202);
    await receiver.waitFor((r) => r.received.length === 2);

    const stranger = await createTenant();
    expect((await api("POST", `/api/v2/webhooks/${webhookId}/test`, { headers: keyHeader(stranger), json: { kind: "approved" } })).status).toBe(404);
    expect((await api("POST", `/api/v2/webhooks/deliveries/${delivery.delivery_id}/resend`, { headers: keyHeader(stranger) })).status).toBe(404);
    expect((await api("GET", "/api/v2/webhooks/deliveries", { headers: keyHeader(stranger) })).body.data.deliveries).toEqual([]);
    const bad = await api("POST", `/api/v2/webhooks/${webhookId}/test`, { headers: keyHeader(t), json: { kind: "boom" } });
    expect(bad.status).toBe(400);
    expect(bad.body.data.errors).toHaveProperty("kind");
  });
});
