import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyWebhook } from "@/sdk/src/webhooks";
import { api } from "../support/api";
import { useServerDatabase } from "../support/domain";
import { signUpDeveloper, type PortalDeveloper } from "../support/portal";
import { TestReceiver } from "../support/receiver";

/**
 * The portal's webhook routes (app/api/portal/apps/{id}/webhooks/**) over
 * HTTP against the shared production server, whose worker delivers to real
 * local receivers (retries every second): registration with today's URL
 * rules (HTTPS; http://localhost in test apps; no address the delivery
 * guard refuses, in any app), approval, secret rotation (the new secret signs what follows), each
 * simulated event kind reaching the receiver, the delivery log (every
 * attempt, newest first, cursor pages, filters) and resend; every route
 * answers 404 to a developer of another organization and changes nothing.
 */
useServerDatabase();

let a: PortalDeveloper;
let b: PortalDeveloper;
let testApp: string;
let liveApp: string;
const receiver = new TestReceiver();
const second = new TestReceiver();
let hookId = "";
let secondHookId = "";
let firstSecret = "";

const base = (appId: string) => `/api/portal/apps/${appId}/webhooks`;

type Delivery = {
  delivery_id: string;
  event_id: string;
  webhook_id: string;
  state: string;
  status: string | null;
  test: boolean;
  bad_signature: boolean;
  forgery: string | null;
  created_at: string;
  next_attempt_at: string | null;
  attempts: Array<{ number: number; outcome: string; status_code: number | null; duration_ms: number | null; response_snippet: string | null; error: string | null; started_at: string }>;
};

/** The whole delivery log of `appId` (following cursors), once nothing is pending any more. */
async function settledLog(appId: string, query = ""): Promise<Delivery[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const all: Delivery[] = [];
    let cursor: string | null = null;
    do {
      const sep: string = query || cursor ? "?" : "";
      const params: string = [query, cursor ? `cursor=${encodeURIComponent(cursor)}` : ""].filter(Boolean).join("&");
      const res = await a.call("GET", `${base(appId)}/deliveries${sep}${params}`);
      expect(res.status).toBe(200);
      all.push(...res.body.data.deliveries);
      cursor = res.body.data.next_cursor;
    } while (cursor);
    if (!all.some((d) => d.state === "pending") || Date.now() > deadline) return all;
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function sendTest(kind: string, webhookId = hookId) {
  const res = await a.call("POST", `${base(testApp)}/${webhookId}/test`, { json: { kind } });
  expect(res.status, kind).toBe(202);
  return res.body.data as { event_id: string; kind: string; deliveries: number };
}

beforeAll(async () => {
  [a, b] = await Promise.all([signUpDeveloper(), signUpDeveloper()]);
  await Promise.all([receiver.start(), second.start()]);
  const test = await a.call("POST", "/api/portal/apps", { json: { name: "Hooks", environment: "test" } });
  const live = await a.call("POST", "/api/portal/apps", { json: { name: "Live hooks", environment: "production" } });
  testApp = test.body.data.app_id;
  liveApp = live.body.data.app_id;
});

afterAll(async () => {
  await Promise.all([receiver.stop(), second.stop()]);
});

describe("registering a webhook", () => {
  it("refuses a malformed body with the per-field map in the envelope", async () => {
    const missing = await a.call("POST", base(testApp), { json: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ success: false, error: { code: "invalid_request" } });
    expect(missing.body.data.errors).toHaveProperty("url");
    const extra = await a.call("POST", base(testApp), { json: { url: "https://shop.example/hook", approve: true } });
    expect(extra.status).toBe(400);
    expect(extra.body.data.errors).toEqual({ approve: ["Unknown field"] });
    const notUrl = await a.call("POST", base(testApp), { json: { url: "not a url" } });
    expect(notUrl.status).toBe(400);
    expect(notUrl.body.data.errors.url).toEqual(["Webhook URL must be an absolute URL"]);
  });

  it("refuses plain http and refused addresses as today's rules do, and accepts allowed URLs", async () => {
    const refusals: Array<[string, string, string]> = [
      [testApp, "http://shop.example/hook", "Webhook URL must use https (http only for localhost in test apps)"],
      [liveApp, "http://shop.example/hook", "Webhook URL must use https"],
      [liveApp, "https://10.0.0.7/hook", "Webhook URL must not point to a loopback, private or other non-public address"],
      // The shared server allows 127.0.0.1/32 and ::1/128 (its tests' receivers): other private addresses stay refused.
      [liveApp, "https://127.0.0.2:8443/hook", "Webhook URL must not point to a loopback, private or other non-public address"],
      [liveApp, "https://[::ffff:a00:7]/hook", "Webhook URL must not point to a loopback, private or other non-public address"],
      // Test apps too: the address guard is the same in both environments.
      [testApp, "https://10.0.0.7/hook", "Webhook URL must not point to a loopback, private or other non-public address"],
      [testApp, "https://169.254.169.254/latest/meta-data", "Webhook URL must not point to a loopback, private or other non-public address"],
      [testApp, "http://127.0.0.2:8080/hook", "Webhook URL must not point to a loopback, private or other non-public address"],
    ];
    for (const [appId, url, message] of refusals) {
      const res = await a.call("POST", base(appId), { json: { url } });
      expect(res.status, url).toBe(400);
      expect(res.body.error.code, url).toBe("invalid_request");
      expect(res.body.data.errors.url, url).toContain(message);
    }
    // A live app: HTTPS to a host name (its addresses are checked at each delivery) or a public address.
    for (const url of ["https://hooks.shop.example/svc", "https://93.184.215.14/svc"]) {
      const res = await a.call("POST", base(liveApp), { json: { url } });
      expect(res.status, url).toBe(201);
      expect(res.body.data).toMatchObject({ url, approved: false, active: true, secret: expect.stringMatching(/^whsec_/) });
    }
    // A test app: http on localhost (the local receiver).
    const created = await a.call("POST", base(testApp), { json: { url: receiver.url } });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({ webhook_id: expect.any(String), url: receiver.url, secret: expect.stringMatching(/^whsec_/), approved: false, active: true });
    hookId = created.body.data.webhook_id;
    firstSecret = created.body.data.secret;
    receiver.secret = firstSecret;
    const other = await a.call("POST", base(testApp), { json: { url: second.url } });
    secondHookId = other.body.data.webhook_id;
    second.secret = other.body.data.secret;

    // Listed without secrets, awaiting approval.
    const list = await a.call("GET", base(testApp));
    expect(list.status).toBe(200);
    expect(list.body.data.webhooks).toEqual([
      { webhook_id: hookId, url: receiver.url, approved: false, active: true, created_at: expect.any(String), previous_secret_expires_at: null },
      { webhook_id: secondHookId, url: second.url, approved: false, active: true, created_at: expect.any(String), previous_secret_expires_at: null },
    ]);
    expect(list.text).not.toContain("whsec_");
  });

  it("approves a webhook (again is harmless); an unknown webhook is 404", async () => {
    const approved = await a.call("POST", `${base(testApp)}/${hookId}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body.data.webhook).toMatchObject({ webhook_id: hookId, approved: true, active: true });
    expect((await a.call("POST", `${base(testApp)}/${hookId}/approve`)).status).toBe(200);
    const list = await a.call("GET", base(testApp));
    expect(list.body.data.webhooks.map((w: { approved: boolean }) => w.approved)).toEqual([true, false]);
    const unknown = await a.call("POST", `${base(testApp)}/7d0c1f1e-94a8-4a43-9b44-0c6a8d1d5b10/approve`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("not_found");
  });

  it("rotates the signing secret (the old one stopping now): a new one, shown once; what follows is signed with it alone", async () => {
    const rotated = await a.call("POST", `${base(testApp)}/${hookId}/secret`, { json: { expire_previous_in: 0 } });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data).toEqual({ webhook_id: hookId, secret: expect.stringMatching(/^whsec_/), previous_secret_expires_at: null });
    expect(rotated.body.data.secret).not.toBe(firstSecret);
    receiver.secret = rotated.body.data.secret;
    const sent = await sendTest("approved");
    await receiver.waitFor((r) => r.processed.some((e) => e.event_id === sent.event_id));
    const got = receiver.received.find((r) => r.headers["x-svc-event-id"] === sent.event_id)!;
    expect(() => verifyWebhook(got.body, got.headers, firstSecret)).toThrow();
    expect((await a.call("GET", base(testApp))).text).not.toContain("whsec_");
  });
});

describe("test events and the delivery log", () => {
  const sent: Record<string, { event_id: string; deliveries: number }> = {};

  it("each simulated kind reaches the receiver signed (bad_signature excepted); duplicate arrives twice with one event id", async () => {
    for (const kind of ["approved", "declined", "in_review", "expired", "duplicate", "bad_signature"]) sent[kind] = await sendTest(kind);
    expect(sent.duplicate!.deliveries).toBe(2);
    expect(sent.approved!.deliveries).toBe(1);
    const statuses = { approved: "APPROVED", declined: "DECLINED", in_review: "IN_REVIEW", expired: "EXPIRED" } as const;
    for (const [kind, status] of Object.entries(statuses)) {
      const id = sent[kind]!.event_id;
      await receiver.waitFor((r) => r.processed.some((e) => e.event_id === id));
      expect(receiver.processed.find((e) => e.event_id === id)).toMatchObject({
        test: true,
        status,
        decision: status.toLowerCase(),
        type: kind === "approved" ? "verification.approved" : "verification.completed",
        session_id: expect.stringMatching(/^sess_test_/),
      });
    }
    const dupId = sent.duplicate!.event_id;
    await receiver.waitFor((r) => r.received.filter((x) => x.event?.event_id === dupId).length === 2);
    const copies = receiver.received.filter((x) => x.headers["x-svc-event-id"] === dupId);
    expect(copies.map((c) => c.status)).toEqual([200, 200]);
    expect(copies.map((c) => c.duplicate).sort()).toEqual([false, true]);
    expect(receiver.processed.filter((e) => e.event_id === dupId)).toHaveLength(1);
    const badId = sent.bad_signature!.event_id;
    await receiver.waitFor((r) => r.received.some((x) => x.headers["x-svc-event-id"] === badId));
    const bad = receiver.received.filter((x) => x.headers["x-svc-event-id"] === badId);
    expect(bad.map((x) => [x.status, x.error])).toEqual([[400, "invalid signature"]]);
  });

  it("the log lists every delivery newest first with every attempt (time, status, latency, response, error)", async () => {
    const log = await settledLog(testApp);
    // approved (after the rotation) + the six kinds, duplicate twice: 8 deliveries.
    expect(log).toHaveLength(8);
    const times = log.map((d) => d.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const byEvent = (id: string) => log.filter((d) => d.event_id === id);
    expect(byEvent(sent.declined!.event_id)).toEqual([
      expect.objectContaining({
        state: "succeeded",
        status: "DECLINED",
        test: true,
        bad_signature: false,
        forgery: null,
        webhook_id: hookId,
        next_attempt_at: null,
        attempts: [
          {
            number: 1,
            outcome: "succeeded",
            started_at: expect.any(String),
            ended_at: expect.any(String),
            status_code: 200,
            duration_ms: expect.any(Number),
            // The receiver is on loopback (reached through WEBHOOK_ALLOWED_NETWORKS): its answer is not shown.
            response_snippet: null,
            error: null,
          },
        ],
      }),
    ]);
    expect(byEvent(sent.duplicate!.event_id).map((d) => d.state)).toEqual(["succeeded", "succeeded"]);
    expect(byEvent(sent.bad_signature!.event_id)).toEqual([
      expect.objectContaining({
        state: "failed",
        bad_signature: true,
        forgery: "refused",
        attempts: [expect.objectContaining({ number: 1, outcome: "failed", status_code: 400, response_snippet: null })],
      }),
    ]);
  });

  it("shows a failing receiver's retries with their error and the next retry time", async () => {
    second.failNext = 1;
    const res = await a.call("POST", `${base(testApp)}/${secondHookId}/test`, { json: { kind: "expired" } });
    expect(res.status).toBe(202);
    await second.waitFor((r) => r.processed.some((e) => e.event_id === res.body.data.event_id));
    const [delivery] = await settledLog(testApp, `webhook_id=${secondHookId}`);
    expect(delivery).toMatchObject({ event_id: res.body.data.event_id, state: "succeeded", webhook_id: secondHookId });
    expect(delivery!.attempts.map((x) => [x.number, x.outcome, x.status_code, x.response_snippet])).toEqual([
      [1, "failed", 500, null],
      [2, "succeeded", 200, null],
    ]);
    // A receiver that refuses connections: the error, and the next retry while pending.
    await second.stop();
    const down = await a.call("POST", `${base(testApp)}/${secondHookId}/test`, { json: { kind: "approved" } });
    const deadline = Date.now() + 10_000;
    let pending: Delivery | undefined;
    while (Date.now() < deadline) {
      const page = await a.call("GET", `${base(testApp)}/deliveries?webhook_id=${secondHookId}&state=pending`);
      pending = (page.body.data.deliveries as Delivery[]).find((d) => d.event_id === down.body.data.event_id && d.attempts.some((x) => x.outcome === "failed"));
      if (pending) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(pending).toBeDefined();
    expect(pending!.attempts[0]).toMatchObject({ outcome: "failed", status_code: null, error: "connect ECONNREFUSED" });
    expect(Date.parse(pending!.next_attempt_at!)).toBeGreaterThan(Date.parse(pending!.attempts[0]!.started_at));
  });

  it("pages with a cursor and filters on the server by webhook and state; bad filters are 400 with the field named", async () => {
    const all = await settledLog(testApp);
    const paged: Delivery[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await a.call("GET", `${base(testApp)}/deliveries?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(res.body.data.deliveries.length).toBeLessThanOrEqual(3);
      paged.push(...res.body.data.deliveries);
      cursor = res.body.data.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(Math.ceil(all.length / 3));
    expect(paged.map((d) => d.delivery_id)).toEqual(all.map((d) => d.delivery_id));

    const onlySecond = await settledLog(testApp, `webhook_id=${secondHookId}`);
    expect(onlySecond).toHaveLength(2);
    expect(onlySecond.every((d) => d.webhook_id === secondHookId)).toBe(true);
    const failed = await a.call("GET", `${base(testApp)}/deliveries?state=failed&webhook_id=${hookId}`);
    expect(failed.body.data.deliveries.map((d: Delivery) => d.event_id)).toEqual([sent.bad_signature!.event_id]);

    for (const [query, field] of [["cursor=nonsense", "cursor"], ["state=exploded", "state"], ["limit=0", "limit"]]) {
      const res = await a.call("GET", `${base(testApp)}/deliveries?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
      expect(res.body.data.errors, query).toHaveProperty(field!);
    }
    const badKind = await a.call("POST", `${base(testApp)}/${hookId}/test`, { json: { kind: "exploded" } });
    expect(badKind.status).toBe(400);
    expect(badKind.body.data.errors).toHaveProperty("kind");
  });

  it("resends a delivery: a new delivery of the same event id, at the top of the log, with its own attempt", async () => {
    const eventId = sent.declined!.event_id;
    const [original] = (await settledLog(testApp)).filter((d) => d.event_id === eventId);
    const resent = await a.call("POST", `${base(testApp)}/deliveries/${original!.delivery_id}/resend`);
    expect(resent.status).toBe(202);
    expect(resent.body.data).toEqual({ delivery_id: expect.any(String), event_id: eventId, resent_from: original!.delivery_id });
    await receiver.waitFor((r) => r.received.filter((x) => x.headers["x-svc-event-id"] === eventId).length === 2);
    expect(receiver.received.filter((x) => x.headers["x-svc-event-id"] === eventId).map((x) => x.duplicate)).toEqual([false, true]);
    const [top] = await settledLog(testApp);
    expect(top).toMatchObject({ delivery_id: resent.body.data.delivery_id, event_id: eventId, state: "succeeded" });
    expect(top!.attempts).toEqual([expect.objectContaining({ number: 1, outcome: "succeeded", status_code: 200 })]);
  });
});

describe("another organization", () => {
  it("gets 404 on every webhook route of the app, also through its own app, and changes nothing", async () => {
    const logBefore = await settledLog(testApp);
    const [delivery] = logBefore;
    const before = receiver.received.length;
    const routes: Array<[string, string, unknown?]> = [
      ["GET", base(testApp)],
      ["POST", base(testApp), { url: "https://evil.example/hook" }],
      ["POST", `${base(testApp)}/${secondHookId}/approve`],
      ["POST", `${base(testApp)}/${hookId}/secret`],
      ["POST", `${base(testApp)}/${hookId}/test`, { kind: "approved" }],
      ["GET", `${base(testApp)}/deliveries`],
      ["POST", `${base(testApp)}/deliveries/${delivery!.delivery_id}/resend`],
    ];
    for (const [method, path, json] of routes) {
      const res = await b.call(method, path, json === undefined ? {} : { json });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code, `${method} ${path}`).toBe("not_found");
    }
    // Through B's own app, naming A's webhook or delivery: still 404.
    const own = await b.call("POST", "/api/portal/apps", { json: { name: "B hooks", environment: "test" } });
    const ownBase = base(own.body.data.app_id);
    for (const [method, path, json] of [
      ["POST", `${ownBase}/${secondHookId}/approve`],
      ["POST", `${ownBase}/${hookId}/secret`],
      ["POST", `${ownBase}/${hookId}/test`, { kind: "approved" }],
      ["POST", `${ownBase}/deliveries/${delivery!.delivery_id}/resend`],
    ] as Array<[string, string, unknown?]>) {
      const res = await b.call(method, path, json === undefined ? {} : { json });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const ownLog = await b.call("GET", `${ownBase}/deliveries?webhook_id=${hookId}`);
    expect(ownLog.body.data.deliveries).toEqual([]);
    expect((await b.call("GET", ownBase)).body.data.webhooks).toEqual([]);

    // Nothing changed for A: the second webhook is still unapproved, no webhook was added, nothing was sent.
    const list = await a.call("GET", base(testApp));
    expect(list.body.data.webhooks.map((w: { webhook_id: string; approved: boolean }) => [w.webhook_id, w.approved])).toEqual([
      [hookId, true],
      [secondHookId, false],
    ]);
    // And the secret did not rotate: A's next event still verifies with the secret A holds.
    const sentAfter = await sendTest("approved");
    await receiver.waitFor((r) => r.processed.some((e) => e.event_id === sentAfter.event_id));
    // Nothing was sent but that event: one new delivery in A's log, and it alone reached the receiver.
    const logAfter = await settledLog(testApp);
    expect(logAfter.filter((d) => !logBefore.some((b) => b.delivery_id === d.delivery_id)).map((d) => d.event_id)).toEqual([sentAfter.event_id]);
    expect(receiver.received.slice(before).map((x) => x.headers["x-svc-event-id"])).toEqual([sentAfter.event_id]);
  });

  it("needs a signed-in developer", async () => {
    const res = await api("GET", base(testApp));
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("sign_in_required");
  });
});
