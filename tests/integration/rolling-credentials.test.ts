import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyWebhook, WebhookVerificationError } from "@/sdk/src/webhooks";
import { api, shared, type ApiResponse } from "../support/api";
import { useServerDatabase } from "../support/domain";
import { signUpDeveloper, type PortalDeveloper } from "../support/portal";
import { TestReceiver, type Received } from "../support/receiver";

/**
 * Rolling credentials with an overlap window (issue 33 item 15, README "Developer
 * portal", "Token endpoint" and "Webhooks"), over HTTP against the shared
 * production server: an API key, the OIDC client secret (a production app
 * made in the portal) and a webhook signing secret (a test app, whose
 * webhook may be a local receiver). For each, the new one works at once, the
 * old one keeps working during the window and is refused once it ends
 * (a window of one or two seconds, waited for as a condition), and "now"
 * stops it at once. Rolling is also checked on its refusal side: bad
 * windows, a key already rolled, another organization's resources.
 */
useServerDatabase();

let a: PortalDeveloper;
let b: PortalDeveloper;
let liveApp: { appId: string; apiKey: string; clientId: string; clientSecret: string };
let testApp: { appId: string; apiKey: string };
const receiver = new TestReceiver();

const keyCall = (key: string) => api("GET", "/api/v2/webhooks", { headers: { "X-API-Key": key } });

/** Polls `probe` until `done` holds for its answer (or 10 s pass). */
async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A token request authenticated with the client's id and `secret`: the refresh token is unknown, so a right secret gets `invalid_grant`, a wrong one `invalid_client`. */
async function tokenWith(secret: string, method: "basic" | "post"): Promise<{ status: number; error: string }> {
  const form: Record<string, string> = { grant_type: "refresh_token", refresh_token: "rt_unknown" };
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (method === "post") Object.assign(form, { client_id: liveApp.clientId, client_secret: secret });
  else headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(liveApp.clientId)}:${encodeURIComponent(secret)}`).toString("base64")}`;
  const res = await fetch(`${shared().url}/api/auth/oidc/token`, { method: "POST", headers, body: new URLSearchParams(form).toString() });
  const body = (await res.json()) as { error: string | { code: string } };
  return { status: res.status, error: typeof body.error === "string" ? body.error : body.error.code };
}

const ACCEPTED = { status: 400, error: "invalid_grant" };
const REFUSED = { status: 401, error: "invalid_client" };

beforeAll(async () => {
  [a, b] = await Promise.all([signUpDeveloper(), signUpDeveloper()]);
  await receiver.start();
  const live = await a.call("POST", "/api/portal/apps", { json: { name: "Rolling live", environment: "production" } });
  const test = await a.call("POST", "/api/portal/apps", { json: { name: "Rolling test", environment: "test" } });
  expect([live.status, test.status]).toEqual([201, 201]);
  liveApp = { appId: live.body.data.app_id, apiKey: live.body.data.api_key, clientId: live.body.data.client_id, clientSecret: live.body.data.client_secret };
  testApp = { appId: test.body.data.app_id, apiKey: test.body.data.api_key };
});

afterAll(async () => {
  await receiver.stop();
});

describe("rolling an API key", () => {
  const keys = () => `/api/portal/apps/${liveApp.appId}/keys`;
  const listed = async () => (await a.call("GET", keys())).body.data.keys as Array<{ id: string; prefix: string; expires_at: string | null; revoked_at: string | null }>;

  it("the new key works at once, the old one until its expiry, then is refused as a revoked key is", async () => {
    const [first] = await listed();
    const rolled = await a.call("POST", `${keys()}/${first!.id}/roll`, { json: { expire_previous_in: 3600 } });
    expect(rolled.status, rolled.text).toBe(201);
    const second = rolled.body.data as { id: string; prefix: string; api_key: string; previous: { id: string; expires_at: string } };
    expect(second.api_key).toMatch(/^sk_live_/);
    expect(second.previous.id).toBe(first!.id);
    expect(Date.parse(second.previous.expires_at) - Date.now()).toBeGreaterThan(3590_000);
    // Both work during the window; the list shows when the old one expires.
    expect((await keyCall(liveApp.apiKey)).status).toBe(200);
    expect((await keyCall(second.api_key)).status).toBe(200);
    expect((await listed()).find((k) => k.id === first!.id)).toMatchObject({ expires_at: second.previous.expires_at, revoked_at: null });
    // A rolled key is not rolled again.
    const again = await a.call("POST", `${keys()}/${first!.id}/roll`, { json: {} });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("key_not_rollable");

    // Roll the second with a one-second window: it stops by itself, the third works.
    const third = await a.call("POST", `${keys()}/${second.id}/roll`, { json: { expire_previous_in: 1 } });
    expect(third.status).toBe(201);
    expect((await keyCall(third.body.data.api_key)).status).toBe(200);
    const expired = await until(() => keyCall(second.api_key), (res) => res.status !== 200);
    expect(expired.status).toBe(401);
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(third.body.data.previous.expires_at));
    // The same answer as a revoked key.
    const revoke = await a.call("DELETE", `${keys()}/${first!.id}`);
    expect(revoke.status).toBe(200);
    const revoked = await keyCall(liveApp.apiKey);
    expect(revoked.status).toBe(401);
    expect(expired.body.error).toEqual(revoked.body.error);
    expect(expired.body.error.code).toBe("invalid_api_key");
    expect((await keyCall(third.body.data.api_key)).status).toBe(200);
  });

  it("\"now\" (0) stops the old key at once; the default window is 24 hours", async () => {
    const made = await a.call("POST", keys(), { json: { name: "ci" } });
    const now = await a.call("POST", `${keys()}/${made.body.data.id}/roll`, { json: { expire_previous_in: 0 } });
    expect(now.status).toBe(201);
    expect(now.body.data.name).toBe("ci");
    expect((await keyCall(made.body.data.api_key)).status).toBe(401);
    expect((await keyCall(now.body.data.api_key)).status).toBe(200);
    const byDefault = await a.call("POST", `${keys()}/${now.body.data.id}/roll`);
    expect(byDefault.status).toBe(201);
    const hours = (Date.parse(byDefault.body.data.previous.expires_at) - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
  });

  it("refuses a bad window with 400, and another organization's key with 404 (changing nothing)", async () => {
    const [key] = await listed();
    for (const bad of [-1, 604_801, 1.5, "1h", null]) {
      const res = await a.call("POST", `${keys()}/${key!.id}/roll`, { json: { expire_previous_in: bad } });
      expect(res.status, String(bad)).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
    const outsider = await b.call("POST", `${keys()}/${key!.id}/roll`, { json: { expire_previous_in: 0 } });
    expect(outsider.status).toBe(404);
    expect((await listed()).find((k) => k.id === key!.id)?.expires_at).toBeNull();
  });
});

describe("rotating the OIDC client secret", () => {
  const rotate = (json?: unknown) => a.call("POST", `/api/portal/apps/${liveApp.appId}/oidc/secret`, json === undefined ? {} : { json });
  const settings = async () => (await a.call("GET", `/api/portal/apps/${liveApp.appId}/oidc`)).body.data as { previous_secret_expires_at: string | null };

  it("keeps the previous secret valid (Basic and post) until its expiry, then invalid_client", async () => {
    const old = liveApp.clientSecret;
    expect(await tokenWith(old, "post")).toEqual(ACCEPTED);
    const first = await rotate({ expire_previous_in: 3600 });
    expect(first.status).toBe(200);
    const second: string = first.body.data.client_secret;
    expect(second).toMatch(/^cs_live_/);
    expect(first.body.data.previous_secret_expires_at).toEqual(expect.any(String));
    expect((await settings()).previous_secret_expires_at).toBe(first.body.data.previous_secret_expires_at);
    for (const method of ["basic", "post"] as const) {
      expect(await tokenWith(old, method), `old, ${method}`).toEqual(ACCEPTED);
      expect(await tokenWith(second, method), `new, ${method}`).toEqual(ACCEPTED);
    }
    // Rotating again with a one-second window: the oldest stops at once, the second when its window ends.
    const next = await rotate({ expire_previous_in: 1 });
    const third: string = next.body.data.client_secret;
    expect(await tokenWith(old, "post")).toEqual(REFUSED);
    expect(await tokenWith(third, "basic")).toEqual(ACCEPTED);
    const ended = await until(() => tokenWith(second, "post"), (r) => r.status === 401);
    expect(ended).toEqual(REFUSED);
    expect(await tokenWith(second, "basic")).toEqual(REFUSED);
    expect(await tokenWith(third, "post")).toEqual(ACCEPTED);
    expect((await settings()).previous_secret_expires_at).toBeNull();
  });

  it("\"now\" stops the previous secret at once; a bad window is 400 and rotates nothing", async () => {
    const current = (await rotate({ expire_previous_in: 0 })).body.data;
    expect(current.previous_secret_expires_at).toBeNull();
    const bad = await rotate({ expire_previous_in: "soon" });
    expect(bad.status).toBe(400);
    expect(await tokenWith(current.client_secret, "post")).toEqual(ACCEPTED);
    const byDefault = await rotate();
    expect(byDefault.status).toBe(200);
    expect(Date.parse(byDefault.body.data.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    expect(await tokenWith(current.client_secret, "post")).toEqual(ACCEPTED);
    expect(await tokenWith(byDefault.body.data.client_secret, "post")).toEqual(ACCEPTED);
  });
});

describe("rolling a webhook signing secret", () => {
  let hookId = "";
  let firstSecret = "";
  const hooks = () => `/api/portal/apps/${testApp.appId}/webhooks`;

  /** Sends an approved test event and returns what the receiver got for it. */
  async function deliver(): Promise<Received> {
    const sent = await a.call("POST", `${hooks()}/${hookId}/test`, { json: { kind: "approved" } });
    expect(sent.status).toBe(202);
    const eventId: string = sent.body.data.event_id;
    const got = await until(
      async () => receiver.received.find((r) => r.headers["x-svc-event-id"] === eventId),
      (r) => r !== undefined,
    );
    expect(got, "the delivery arrived").toBeDefined();
    return got!;
  }
  const verifies = (got: Received, secret: string) => {
    try {
      verifyWebhook(got.body, got.headers as Record<string, string>, secret);
      return true;
    } catch (err) {
      if (err instanceof WebhookVerificationError) return false;
      throw err;
    }
  };
  const v2Hook = async () => ((await api("GET", "/api/v2/webhooks", { headers: { "X-API-Key": testApp.apiKey } })).body.data.webhooks as Array<{ webhook_id: string; previous_secret_expires_at: string | null }>).find((w) => w.webhook_id === hookId)!;

  beforeAll(async () => {
    const created = await a.call("POST", hooks(), { json: { url: receiver.url } });
    expect(created.status).toBe(201);
    hookId = created.body.data.webhook_id;
    firstSecret = created.body.data.secret;
    expect((await a.call("POST", `${hooks()}/${hookId}/approve`)).status).toBe(200);
  });

  it("during the overlap each delivery carries both signatures: a receiver with either secret verifies it", async () => {
    // Rolled over the API, with a one-hour window.
    const rolled: ApiResponse = await api("POST", `/api/v2/webhooks/${hookId}/secret`, { headers: { "X-API-Key": testApp.apiKey }, json: { expire_previous_in: 3600 } });
    expect(rolled.status, rolled.text).toBe(200);
    const newSecret: string = rolled.body.data.secret;
    expect(newSecret).toMatch(/^whsec_/);
    expect(rolled.body.data.webhook).toMatchObject({ webhook_id: hookId, previous_secret_expires_at: expect.any(String) });
    expect((await v2Hook()).previous_secret_expires_at).toBe(rolled.body.data.webhook.previous_secret_expires_at);

    receiver.secret = firstSecret; // a receiver that has not switched yet
    const got = await deliver();
    expect(got.status).toBe(200);
    expect(String(got.headers["x-svc-signature"])).toMatch(/^[0-9a-f]{64},[0-9a-f]{64}$/);
    expect(verifies(got, firstSecret)).toBe(true);
    expect(verifies(got, newSecret)).toBe(true);
    expect(verifies(got, "whsec_someone_else")).toBe(false);
  });

  it("after the window only the new secret signs: the old one no longer verifies", async () => {
    const rolled = await a.call("POST", `${hooks()}/${hookId}/secret`, { json: { expire_previous_in: 1 } });
    expect(rolled.status).toBe(200);
    const latest: string = rolled.body.data.secret;
    const previous = rolled.body.data.previous_secret_expires_at as string;
    expect(previous).toEqual(expect.any(String));
    const ended = await until(v2Hook, (w) => w.previous_secret_expires_at === null);
    expect(ended.previous_secret_expires_at).toBeNull();
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(previous));

    receiver.secret = latest;
    const got = await deliver();
    expect(got.status).toBe(200);
    expect(String(got.headers["x-svc-signature"])).toMatch(/^[0-9a-f]{64}$/);
    expect(verifies(got, latest)).toBe(true);
    expect(verifies(got, firstSecret)).toBe(false);
  });

  it("\"now\" signs with the new secret alone at once; a bad window is 400; another organization's webhook is 404", async () => {
    const now = await a.call("POST", `${hooks()}/${hookId}/secret`, { json: { expire_previous_in: 0 } });
    expect(now.body.data.previous_secret_expires_at).toBeNull();
    receiver.secret = now.body.data.secret;
    const got = await deliver();
    expect(String(got.headers["x-svc-signature"])).toMatch(/^[0-9a-f]{64}$/);
    expect(verifies(got, now.body.data.secret)).toBe(true);

    const bad = await api("POST", `/api/v2/webhooks/${hookId}/secret`, { headers: { "X-API-Key": testApp.apiKey }, json: { expire_previous_in: 604_801 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_request");
    const other = await b.call("POST", "/api/portal/apps", { json: { name: "Other", environment: "test" } });
    const outsider = await api("POST", `/api/v2/webhooks/${hookId}/secret`, { headers: { "X-API-Key": other.body.data.api_key }, json: {} });
    expect(outsider.status).toBe(404);
    const foreign = await b.call("POST", `${hooks()}/${hookId}/secret`, { json: {} });
    expect(foreign.status).toBe(404);
    // Nothing changed: the next delivery still verifies with the secret A holds, and only with it.
    const after = await deliver();
    expect(String(after.headers["x-svc-signature"])).toMatch(/^[0-9a-f]{64}$/);
    expect(verifies(after, now.body.data.secret)).toBe(true);
  });
});
