import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { api, createSession, createTenant, createWorkflow, keyHeader, postSession, shared, type Tenant } from "../support/api";
import { cli } from "../support/cli";
import { sql } from "../support/database";
import { setWalletBalance, useServerDatabase } from "../support/domain";

useServerDatabase();

let t: Tenant;
let workflowId: string;
beforeAll(async () => {
  t = await createTenant();
  workflowId = await createWorkflow(t, ["id_verification", "liveness", "face_match"]);
});

describe("POST /api/v2/session", () => {
  it("redirect_url: https; a test app may also return to http on localhost, a production app never to http", async () => {
    const live = await createTenant(shared().env, "production");
    const liveWorkflow = await createWorkflow(live, ["liveness"]);
    for (const [tenant, wf, url, status] of [
      [t, workflowId, "http://localhost:3000/done", 201],
      [t, workflowId, "https://shop.example/done", 201],
      [t, workflowId, "http://shop.example/done", 400],
      [live, liveWorkflow, "https://shop.example/done", 201],
      [live, liveWorkflow, "http://localhost:3000/done", 400],
    ] as const) {
      const res = await postSession(tenant, { workflow_id: wf, redirect_url: url });
      expect(res.status, url).toBe(status);
      if (status === 400) expect(Object.keys(res.body.data.errors)).toEqual(["redirect_url"]);
    }
  });

  it("201 with the create response of spec 2.2", async () => {
    const started = Date.now();
    const res = await postSession(t, { workflow_id: workflowId, redirect_url: "https://shop.example/done", vendor_data: "user-1" });
    expect(res.status).toBe(201);
    const data = res.body.data;
    expect(Object.keys(data).sort()).toEqual(["expires_at", "features", "redirect_url", "session_id", "session_token", "status", "url"]);
    expect(data).toMatchObject({
      status: "NOT_STARTED",
      features: ["id_verification", "liveness", "face_match"],
      redirect_url: "https://shop.example/done",
    });
    expect(data.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(data.url.startsWith(`${shared().url}/verify/${data.session_id}`)).toBe(true);
    expect(data.url).toContain(encodeURIComponent(data.session_token));
    expect(data.session_token).toMatch(/^st_[A-Za-z0-9_-]{40,}$/);
    const ttl = (Date.parse(data.expires_at) - started) / 1000;
    expect(ttl).toBeGreaterThan(86400 - 60);
    expect(ttl).toBeLessThan(86400 + 60);
    const rows = await sql(shared().env, `SELECT session_token_hash FROM sessions WHERE id = $1`, [data.session_id]);
    expect(rows[0].session_token_hash).toHaveLength(64);
    expect(JSON.stringify(rows)).not.toContain(data.session_token);
  });

  it("ttl_seconds sets the expiry; the workflow's session.ttl_seconds is the default", async () => {
    const short = await createSession(t, { workflow_id: workflowId, ttl_seconds: 600 });
    expect(Date.parse(short.expires_at) - Date.now()).toBeLessThan(601_000);
    expect(Date.parse(short.expires_at) - Date.now()).toBeGreaterThan(540_000);
    const wf = await createWorkflow(t, ["liveness"], { settings: { session: { ttl_seconds: 3600 } } });
    const dflt = await createSession(t, { workflow_id: wf });
    expect(Math.round((Date.parse(dflt.expires_at) - Date.now()) / 60_000)).toBe(60);
  });

  it.each([
    ["no workflow_id", {}, ["workflow_id"]],
    ["a workflow_id that is not a UUID", { workflow_id: "kyc" }, ["workflow_id"]],
    ["ttl_seconds under 300", { ttl_seconds: 299 }, ["ttl_seconds"]],
    ["ttl_seconds over 7 days", { ttl_seconds: 604801 }, ["ttl_seconds"]],
    ["a fractional ttl_seconds", { ttl_seconds: 400.5 }, ["ttl_seconds"]],
    ["a redirect_url that is not a URL", { redirect_url: "done" }, ["redirect_url"]],
    ["a non-http redirect_url", { redirect_url: "javascript:alert(1)" }, ["redirect_url"]],
    ["metadata that is not an object", { metadata: "x" }, ["metadata"]],
    ["expected_lat without expected_lng", { metadata: { expected_lat: 10 } }, ["metadata.expected_lng"]],
    ["an out-of-range latitude", { metadata: { expected_lat: 95, expected_lng: 0 } }, ["metadata.expected_lat"]],
    ["a negative radius", { metadata: { expected_lat: 1, expected_lng: 1, radius_m: -5 } }, ["metadata.radius_m"]],
    ["a non-string vendor_data", { vendor_data: 42 }, ["vendor_data"]],
    ["an unknown field", { workflow: "x" }, ["workflow"]],
    ["a language no supported language serves", { language: "tlh" }, ["language"]],
    ["a language that is not a BCP 47 tag", { language: "French please" }, ["language"]],
    ["a language that is not a string", { language: 33 }, ["language"]],
  ])("%s -> 400 invalid_request with the field map", async (_, body, fields) => {
    // Every case but the workflow_id ones sends a valid workflow_id beside the bad field.
    const json = fields.includes("workflow_id") ? body : { workflow_id: workflowId, ...body };
    const res = await postSession(t, json);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(Object.keys(res.body.data.errors).sort()).toEqual(fields);
  });

  it("language (issue 35): a BCP 47 tag is stored as the supported language that serves it and read back with the session; none is null", async () => {
    const created = await postSession(t, { workflow_id: workflowId, language: "fr-CA" });
    expect(created.status).toBe(201);
    const read = await api("GET", `/api/v2/session/${created.body.data.session_id}`, { headers: keyHeader(t) });
    expect(read.body.data.language).toBe("fr");
    const plain = await postSession(t, { workflow_id: workflowId });
    const plainRead = await api("GET", `/api/v2/session/${plain.body.data.session_id}`, { headers: keyHeader(t) });
    expect(plainRead.body.data.language).toBeNull();
    const refused = await postSession(t, { workflow_id: workflowId, language: "sw" });
    expect(refused.status).toBe(400);
    expect(refused.body.data.errors.language[0]).toMatch(/supported language: en, es, fr/);
  });

  it("401 invalid_api_key without a key", async () => {
    const res = await api("POST", "/api/v2/session", { json: { workflow_id: workflowId } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("invalid_api_key");
  });

  it("404 workflow_not_found for an unknown workflow or another app's", async () => {
    const other = await createTenant();
    const theirs = await createWorkflow(other, ["liveness"]);
    for (const id of [randomUUID(), theirs]) {
      const res = await postSession(t, { workflow_id: id });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, data: [], error: { code: "workflow_not_found" } });
    }
  });

  it("402 when the wallet cannot pay for the workflow's checks", async () => {
    const poor = await createTenant();
    const wf = await createWorkflow(poor, ["id_verification", "liveness", "face_match"]);
    await setWalletBalance(poor.organizationId, 74); // the three checks cost 75 cents
    const res = await postSession(poor, { workflow_id: wf });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ success: false, data: [], error: { code: "insufficient_funds" } });
    await setWalletBalance(poor.organizationId, 75);
    expect((await postSession(poor, { workflow_id: wf })).status).toBe(201);
  });

  it("404 workflow_not_found for a deleted or inactive workflow", async () => {
    const wf = await createWorkflow(t, ["liveness"]);
    await sql(shared().env, "UPDATE workflows SET is_active = false WHERE id = $1", [wf]);
    const inactive = await postSession(t, { workflow_id: wf });
    expect(inactive.status).toBe(404);
    expect(inactive.body.error).toMatchObject({ code: "workflow_not_found", message: expect.stringContaining("not active") });
    await sql(shared().env, "UPDATE workflows SET is_active = true, deleted_at = now() WHERE id = $1", [wf]);
    expect((await postSession(t, { workflow_id: wf })).body.error.code).toBe("workflow_not_found");
  });

  describe("callback (spec 2.2)", () => {
    let hooks: { approved: string; unapproved: string; local: string };
    beforeAll(async () => {
      const env = shared().env;
      await cli(["webhook:create", "--app", t.appId, "--url", "https://hooks.example/approved", "--approve"], env);
      await cli(["webhook:create", "--app", t.appId, "--url", "https://hooks.example/unapproved"], env);
      await cli(["webhook:create", "--app", t.appId, "--url", "http://localhost:4999/hook", "--approve"], env);
      hooks = { approved: "https://hooks.example/approved", unapproved: "https://hooks.example/unapproved", local: "http://localhost:4999/hook" };
    });

    it.each([
      ["an unregistered URL", "https://evil.example/hook"],
      ["an unapproved webhook", "https://hooks.example/unapproved"],
      ["a near match", "https://hooks.example/approved/"],
      ["a different scheme", "http://hooks.example/approved"],
      ["not a URL", "approved"],
    ])("%s -> 422 callback_not_allowed", async (_, callback) => {
      const res = await postSession(t, { workflow_id: workflowId, callback });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ success: false, data: [], error: { code: "callback_not_allowed" } });
    });

    it("an exact active, approved webhook URL is accepted and kept on the session", async () => {
      const created = await createSession(t, { workflow_id: workflowId, callback: hooks.approved });
      const read = await api("GET", `/api/v2/session/${created.session_id}`, { headers: keyHeader(t) });
      expect(read.body.data.callback).toBe(hooks.approved);
      // A test app's localhost webhook is allowed too.
      expect((await postSession(t, { workflow_id: workflowId, callback: hooks.local })).status).toBe(201);
    });
  });

  it("svc_access_token that no provider issued -> 401 invalid_token", async () => {
    const res = await postSession(t, { workflow_id: workflowId, svc_access_token: "at_made_up" });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("invalid_token");
  });

  it("Idempotency-Key makes a retried create return the same session", async () => {
    const key = randomUUID();
    const a = await postSession(t, { workflow_id: workflowId, vendor_data: key }, { "Idempotency-Key": key });
    const b = await postSession(t, { workflow_id: workflowId, vendor_data: key }, { "Idempotency-Key": key });
    expect(b.body.data.session_id).toBe(a.body.data.session_id);
    const list = await api("GET", `/api/v2/session?vendor_data=${key}`, { headers: keyHeader(t) });
    expect(list.body.data.sessions).toHaveLength(1);
  });
});

describe("GET /api/v2/session (list)", () => {
  let lister: Tenant;
  let ids: string[];
  beforeAll(async () => {
    lister = await createTenant();
    const wf = await createWorkflow(lister, ["liveness"]);
    ids = [];
    for (let i = 0; i < 60; i++) {
      ids.push((await createSession(lister, { workflow_id: wf, vendor_data: i % 3 === 0 ? "fizz" : `v${i}` })).session_id);
    }
  });

  it("returns 50 newest first by default, with no pagination metadata", async () => {
    const res = await api("GET", "/api/v2/session", { headers: keyHeader(lister) });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(["sessions"]);
    const got = res.body.data.sessions.map((s: { session_id: string }) => s.session_id);
    expect(got).toEqual([...ids].reverse().slice(0, 50));
    const times = res.body.data.sessions.map((s: { created_at: string }) => Date.parse(s.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it("limit has no maximum", async () => {
    const res = await api("GET", "/api/v2/session?limit=1000", { headers: keyHeader(lister) });
    expect(res.body.data.sessions).toHaveLength(60);
    const five = await api("GET", "/api/v2/session?limit=5", { headers: keyHeader(lister) });
    expect(five.body.data.sessions).toHaveLength(5);
  });

  it("filters by vendor_data and status (equality)", async () => {
    const fizz = await api("GET", "/api/v2/session?vendor_data=fizz&limit=100", { headers: keyHeader(lister) });
    expect(fizz.body.data.sessions).toHaveLength(20);
    expect(fizz.body.data.sessions.every((s: { vendor_data: string }) => s.vendor_data === "fizz")).toBe(true);
    const prefix = await api("GET", "/api/v2/session?vendor_data=fiz", { headers: keyHeader(lister) });
    expect(prefix.body.data.sessions).toHaveLength(0);
    const open = await api("GET", "/api/v2/session?status=NOT_STARTED&limit=100", { headers: keyHeader(lister) });
    expect(open.body.data.sessions).toHaveLength(60);
    const approved = await api("GET", "/api/v2/session?status=APPROVED", { headers: keyHeader(lister) });
    expect(approved.body.data.sessions).toHaveLength(0);
  });

  it.each([["limit=0"], ["limit=abc"], ["limit=2.5"], ["status=DONE"]])("?%s -> 400", async (q) => {
    const res = await api("GET", `/api/v2/session?${q}`, { headers: keyHeader(lister) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
  });

  it("shows only the calling app's sessions", async () => {
    const res = await api("GET", "/api/v2/session?limit=1000", { headers: keyHeader(t) });
    const mine = new Set(res.body.data.sessions.map((s: { session_id: string }) => s.session_id));
    expect(ids.some((id) => mine.has(id))).toBe(false);
  });
});

describe("GET /api/v2/session/{id} and /decision", () => {
  it("the summary carries status, workflow, vendor_data and timestamps", async () => {
    const s = await createSession(t, { workflow_id: workflowId, vendor_data: "sum-1", metadata: { order: 7 } });
    const res = await api("GET", `/api/v2/session/${s.session_id}`, { headers: keyHeader(t) });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      session_id: s.session_id,
      status: "NOT_STARTED",
      workflow_id: workflowId,
      vendor_data: "sum-1",
      metadata: { order: 7 },
      started_at: null,
      completed_at: null,
      decided_at: null,
      expires_at: s.expires_at,
    });
    expect(Date.parse(res.body.data.created_at)).toBeLessThanOrEqual(Date.now());
    expect(res.body.data).not.toHaveProperty("session_token");
  });

  it("the decision has the shape of spec 2.2 before anything ran", async () => {
    const s = await createSession(t, { workflow_id: workflowId, vendor_data: "dec-1" });
    const res = await api("GET", `/api/v2/session/${s.session_id}/decision`, { headers: keyHeader(t) });
    expect(res.body.data).toEqual({
      session_id: s.session_id,
      status: "NOT_STARTED",
      vendor_data: "dec-1",
      svc_id: null,
      origin: "fresh",
      decision: "pending",
      checks: ["id_verification", "liveness", "face_match"].map((type) => ({ type, status: "pending", data: {}, error: null })),
      verifications: { id_verification: { status: "pending" }, liveness: { status: "pending" }, face_match: { status: "pending" } },
      identity: null,
      decided_at: null,
    });
  });

  it("another app's session, or an unknown id, is 404 session_not_found", async () => {
    const s = await createSession(t, { workflow_id: workflowId });
    const other = await createTenant();
    for (const path of [`/api/v2/session/${s.session_id}`, `/api/v2/session/${s.session_id}/decision`, `/api/v2/session/${randomUUID()}`, "/api/v2/session/nope"]) {
      const res = await api("GET", path, { headers: keyHeader(path.includes(s.session_id) ? other : t) });
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe("session_not_found");
    }
    const patch = await api("PATCH", `/api/v2/session/${s.session_id}/status`, { headers: keyHeader(other), json: { status: "DECLINED" } });
    expect(patch.status).toBe(404);
  });
});
