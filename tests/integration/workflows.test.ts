import { beforeAll, describe, expect, it } from "vitest";
import { api, createSession, createTenant, createWorkflow, keyHeader, postSession, type Tenant } from "../support/api";

let t: Tenant;
beforeAll(async () => {
  t = await createTenant();
});

describe("workflows (spec 4.2)", () => {
  it("create returns the complete workflow with every setting filled", async () => {
    const res = await api("POST", "/api/v2/workflows", {
      headers: keyHeader(t),
      json: { name: "KYC", features: ["face_match", "liveness", "id_verification"], settings: { face_match: { threshold: 0.6 } } },
    });
    expect(res.status).toBe(201);
    const wf = res.body.data.workflow;
    expect(wf).toMatchObject({ name: "KYC", features: ["id_verification", "liveness", "face_match"], is_active: true });
    expect(wf.settings).toEqual({
      session: { ttl_seconds: 86400, reuse_proofs: true },
      id_verification: { allowed_documents: ["passport", "id_card", "driving_licence"], min_read_confidence: 0.8 },
      liveness: { actions: ["turn_left", "turn_right", "blink", "look_up", "look_down", "smile"], actions_per_challenge: 3, frames: 7, max_attempts: 3 },
      face_match: { threshold: 0.6, review_margin: 0.08 },
    });
    const got = await api("GET", `/api/v2/workflows/${wf.id}`, { headers: keyHeader(t) });
    expect(got.body.data.workflow).toEqual(wf);
  });

  it("age brings id_verification, on create and on update", async () => {
    const id = await createWorkflow(t, ["liveness"]);
    const res = await api("PATCH", `/api/v2/workflows/${id}`, { headers: keyHeader(t), json: { features: ["age"] } });
    expect(res.status).toBe(200);
    expect(res.body.data.workflow.features).toEqual(["id_verification", "age"]);
    expect(res.body.data.workflow.settings).toHaveProperty("age", { minimum_age: 18 });
    expect(res.body.data.workflow.settings).not.toHaveProperty("liveness");
  });

  it.each([
    ["an unknown feature", { name: "x", features: ["mind_reading"] }, ["features.0"]],
    ["no features", { name: "x", features: [] }, ["features"]],
    ["a bad setting", { name: "x", features: ["liveness"], settings: { liveness: { frames: 2 } } }, ["settings.liveness.frames"]],
    ["a setting of an absent feature", { name: "x", features: ["liveness"], settings: { face_match: {} } }, ["settings.face_match"]],
    ["an unknown field", { name: "x", features: ["liveness"], colour: "red" }, ["colour"]],
    ["a non-boolean is_active", { name: "x", features: ["liveness"], is_active: "no" }, ["is_active"]],
  ])("create with %s -> 400 with the field map", async (_, json, fields) => {
    const res = await api("POST", "/api/v2/workflows", { headers: keyHeader(t), json });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(Object.keys(res.body.data.errors).sort()).toEqual(fields);
  });

  it("credential brings id_verification (a licence must belong to the verified person) and takes its settings", async () => {
    const create = await api("POST", "/api/v2/workflows", {
      headers: keyHeader(t),
      json: { name: "licence", features: ["liveness", "credential"], settings: { credential: { license_types: ["Registered Nurse"] } } },
    });
    expect(create.status).toBe(201);
    expect(create.body.data.workflow.features).toEqual(["id_verification", "liveness", "credential"]);
    expect(create.body.data.workflow.settings.credential).toEqual({ license_types: ["Registered Nurse"], max_attempts: 5 });
    const bad = await api("PATCH", `/api/v2/workflows/${create.body.data.workflow.id}`, {
      headers: keyHeader(t),
      json: { settings: { credential: { max_attempts: 0, license_type: "typo" } } },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.data.errors).sort()).toEqual(["settings.credential.license_type", "settings.credential.max_attempts"]);
    // A licence type no configured registry offers (NPPES calls it "Physician (MD/DO)") would leave sessions nothing to choose.
    const unknown = await api("PATCH", `/api/v2/workflows/${create.body.data.workflow.id}`, {
      headers: keyHeader(t),
      json: { settings: { credential: { license_types: ["registered nurse", "Physician"] } } },
    });
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.body.data.errors)).toEqual(["settings.credential.license_types.1"]);
  });

  it("update validates too, and an empty update is 400", async () => {
    const id = await createWorkflow(t, ["liveness"]);
    const bad = await api("PATCH", `/api/v2/workflows/${id}`, { headers: keyHeader(t), json: { settings: { liveness: { frames: 12 } } } });
    expect(bad.status).toBe(400);
    expect(bad.body.data.errors).toHaveProperty(["settings.liveness.frames"]);
    const empty = await api("PATCH", `/api/v2/workflows/${id}`, { headers: keyHeader(t), json: {} });
    expect(empty.status).toBe(400);
  });

  it("PATCH settings replaces the named feature's settings and keeps the rest", async () => {
    const id = await createWorkflow(t, ["liveness", "face_match"], { settings: { liveness: { frames: 7 } } });
    const res = await api("PATCH", `/api/v2/workflows/${id}`, {
      headers: keyHeader(t),
      json: { settings: { face_match: { threshold: 0.7 } }, name: "renamed", is_active: false },
    });
    expect(res.body.data.workflow).toMatchObject({ name: "renamed", is_active: false });
    expect(res.body.data.workflow.settings.liveness.frames).toBe(7);
    expect(res.body.data.workflow.settings.face_match.threshold).toBe(0.7);
  });

  it("lists this app's workflows, newest first, without deleted ones", async () => {
    const other = await createTenant();
    const a = await createWorkflow(other, ["liveness"]);
    const b = await createWorkflow(other, ["location"]);
    const c = await createWorkflow(other, ["face_match"]);
    await api("DELETE", `/api/v2/workflows/${b}`, { headers: keyHeader(other) });
    const res = await api("GET", "/api/v2/workflows", { headers: keyHeader(other) });
    expect(res.body.data.workflows.map((w: { id: string }) => w.id)).toEqual([c, a]);
  });

  it("delete answers { deleted: true }; then get, update and delete are 404", async () => {
    const id = await createWorkflow(t, ["liveness"]);
    const del = await api("DELETE", `/api/v2/workflows/${id}`, { headers: keyHeader(t) });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true, data: { deleted: true } });
    for (const [method, json] of [["GET", undefined], ["PATCH", { name: "y" }], ["DELETE", undefined]] as const) {
      const res = await api(method, `/api/v2/workflows/${id}`, { headers: keyHeader(t), json });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("workflow_not_found");
    }
  });

  it("an update applies only to sessions created afterwards", async () => {
    const id = await createWorkflow(t, ["liveness"]);
    const before = await createSession(t, { workflow_id: id });
    await api("PATCH", `/api/v2/workflows/${id}`, { headers: keyHeader(t), json: { features: ["liveness", "location"] } });
    const after = await createSession(t, { workflow_id: id });
    expect(before.features).toEqual(["liveness"]);
    expect(after.features).toEqual(["liveness", "location"]);
    const decision = await api("GET", `/api/v2/session/${before.session_id}/decision`, { headers: keyHeader(t) });
    expect(decision.body.data.checks.map((c: { type: string }) => c.type)).toEqual(["liveness"]);
  });

  it("after delete, existing sessions keep working and new ones get 404 workflow_not_found", async () => {
    const id = await createWorkflow(t, ["liveness"]);
    const running = await createSession(t, { workflow_id: id });
    await api("DELETE", `/api/v2/workflows/${id}`, { headers: keyHeader(t) });
    const read = await api("GET", `/api/v2/session/${running.session_id}`, { headers: keyHeader(t) });
    expect(read.status).toBe(200);
    expect(read.body.data.workflow).toEqual({ id, name: "wf-liveness" });
    const res = await postSession(t, { workflow_id: id });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("workflow_not_found");
  });

  it("an inactive workflow cannot start sessions", async () => {
    const id = await createWorkflow(t, ["liveness"], { is_active: false });
    const res = await postSession(t, { workflow_id: id });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("workflow_not_found");
  });
});
