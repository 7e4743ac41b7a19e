import { beforeAll, describe, expect, it } from "vitest";
import { api, shared } from "../support/api";
import { setWalletBalance, useServerDatabase } from "../support/domain";
import { signUpDeveloper, type PortalDeveloper } from "../support/portal";

/**
 * The portal's workflow routes (app/api/portal/apps/{appId}/workflows/**)
 * over HTTP against the real server: the API's validation in the envelope
 * (field by field), the cursor and status filter of the list, activate /
 * deactivate, delete and its spec 4.2 consequences seen from the API, the
 * test session made as POST /api/v2/session makes it (wallet rule, inactive
 * workflow or app), and a developer of another organization refused with
 * 404 on every route.
 */
useServerDatabase();

let a: PortalDeveloper;
let b: PortalDeveloper;
let appA: string;
let keyA: string;
let otherAppA: string;

const base = (appId = appA) => `/api/portal/apps/${appId}/workflows`;

async function createWorkflow(body: Record<string, unknown>, dev = a, appId = appA) {
  const res = await dev.call("POST", base(appId), { json: body });
  expect(res.status, res.text).toBe(201);
  return res.body.data.workflow as { id: string; name: string; features: string[]; settings: Record<string, any>; is_active: boolean };
}

beforeAll(async () => {
  [a, b] = await Promise.all([signUpDeveloper(), signUpDeveloper()]);
  const live = await a.call("POST", "/api/portal/apps", { json: { name: "Shop", environment: "production" } });
  const test = await a.call("POST", "/api/portal/apps", { json: { name: "Shop sandbox", environment: "test" } });
  expect([live.status, test.status]).toEqual([201, 201]);
  appA = live.body.data.app_id;
  keyA = live.body.data.api_key;
  otherAppA = test.body.data.app_id;
});

describe("portal workflows: create and validation", () => {
  it("creates with the API's rules: age brings id_verification, every default filled in, visible to the API", async () => {
    const created = await createWorkflow({ name: "Age gate", features: ["age"], settings: { age: { minimum_age: 21 } } });
    expect(created.features).toEqual(["id_verification", "age"]);
    expect(created.is_active).toBe(true);
    expect(created.settings).toEqual({
      session: { ttl_seconds: 86400, reuse_proofs: true },
      id_verification: { allowed_documents: ["passport", "id_card", "driving_licence"], min_read_confidence: 0.8 },
      age: { minimum_age: 21 },
    });
    const viaApi = await api("GET", `/api/v2/workflows/${created.id}`, { headers: { "X-API-Key": keyA } });
    expect(viaApi.status).toBe(200);
    expect(viaApi.body.data.workflow).toEqual(created);
  });

  it("answers bad input with 400 invalid_request and one message per field, in the envelope", async () => {
    const bad = await a.call("POST", base(), {
      json: { name: "", features: ["face_match", "teleport"], settings: { face_match: { threshold: 1.5, review_margin: -1 } } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.success).toBe(false);
    expect(bad.body.error.code).toBe("invalid_request");
    expect(Object.keys(bad.body.data.errors).sort()).toEqual(["features.1", "name"]);

    const settings = await a.call("POST", base(), {
      json: { name: "KYC", features: ["face_match"], settings: { face_match: { threshold: 1.5, review_margin: -1 }, liveness: {}, session: { ttl_seconds: 10 } } },
    });
    expect(settings.status).toBe(400);
    expect(settings.body.error.code).toBe("invalid_request");
    expect(Object.keys(settings.body.data.errors).sort()).toEqual([
      "settings.face_match.review_margin",
      "settings.face_match.threshold",
      "settings.liveness",
      "settings.session.ttl_seconds",
    ]);
    expect(settings.body.data.errors["settings.liveness"]).toEqual(["liveness is not a feature of this workflow"]);

    const none = await a.call("POST", base(), { json: { name: "Empty", features: [] } });
    expect(none.body.data.errors).toEqual({ features: ["At least one feature is required"] });
    const unknownField = await a.call("POST", base(), { json: { name: "X", features: ["liveness"], colour: "blue" } });
    expect(unknownField.status).toBe(400);
  });

  it("takes the licence check (it brings id_verification) and refuses, at its index, a licence type no registry offers, creating nothing", async () => {
    const before = (await a.call("GET", base())).body.data.workflows.length;
    const unknown = await a.call("POST", base(), {
      json: { name: "Licences", features: ["liveness", "credential"], settings: { credential: { license_types: ["Dentist", "Wizard"] } } },
    });
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.body.data.errors)).toEqual(["settings.credential.license_types.1"]);
    expect((await a.call("GET", base())).body.data.workflows.length).toBe(before);
    const res = await a.call("POST", base(), { json: { name: "Licences", features: ["liveness", "credential"], settings: { credential: { license_types: ["Dentist"] } } } });
    expect(res.status).toBe(201);
    expect(res.body.data.workflow.features).toEqual(["id_verification", "liveness", "credential"]);
  });
});

describe("portal workflows: list", () => {
  it("pages newest first with a cursor, filters by status on the server, and refuses a bad cursor or status", async () => {
    const dev = await signUpDeveloper();
    const app = (await dev.call("POST", "/api/portal/apps", { json: { name: "Many", environment: "test" } })).body.data.app_id as string;
    const names = Array.from({ length: 27 }, (_, i) => `W${String(i).padStart(2, "0")}`);
    for (const name of names) await createWorkflow({ name, features: ["liveness"], is_active: name !== "W03" }, dev, app);

    const first = await dev.call("GET", base(app));
    expect(first.status).toBe(200);
    expect(first.body.data.workflows).toHaveLength(25);
    expect(first.body.data.workflows[0].name).toBe("W26");
    expect(first.body.data.next_cursor).toEqual(expect.any(String));
    const second = await dev.call("GET", `${base(app)}?cursor=${encodeURIComponent(first.body.data.next_cursor)}`);
    expect(second.body.data.workflows.map((w: { name: string }) => w.name)).toEqual(["W01", "W00"]);
    expect(second.body.data.next_cursor).toBeNull();

    const inactive = await dev.call("GET", `${base(app)}?status=inactive`);
    expect(inactive.body.data.workflows.map((w: { name: string }) => w.name)).toEqual(["W03"]);
    const active = await dev.call("GET", `${base(app)}?status=active`);
    expect(active.body.data.workflows.every((w: { is_active: boolean }) => w.is_active)).toBe(true);

    const badCursor = await dev.call("GET", `${base(app)}?cursor=nonsense`);
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.data.errors).toEqual({ cursor: ["Invalid cursor"] });
    const badStatus = await dev.call("GET", `${base(app)}?status=deleted`);
    expect(badStatus.status).toBe(400);
    expect(Object.keys(badStatus.body.data.errors)).toEqual(["status"]);
  });
});

describe("portal workflows: read, update, activate, delete", () => {
  it("reads and updates with PATCH semantics; field errors keep the stored workflow unchanged", async () => {
    const w = await createWorkflow({ name: "KYC", features: ["id_verification", "liveness", "face_match"] });
    const one = await a.call("GET", `${base()}/${w.id}`);
    expect(one.body.data.workflow).toEqual(w);

    const patched = await a.call("PATCH", `${base()}/${w.id}`, { json: { name: "KYC v2", settings: { face_match: { threshold: 0.7 } } } });
    expect(patched.status).toBe(200);
    expect(patched.body.data.workflow.name).toBe("KYC v2");
    expect(patched.body.data.workflow.settings.face_match).toEqual({ threshold: 0.7, review_margin: 0.08 });
    expect(patched.body.data.workflow.settings.liveness).toEqual(w.settings.liveness);

    const bad = await a.call("PATCH", `${base()}/${w.id}`, { json: { settings: { face_match: { threshold: 2 } } } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.data.errors)).toEqual(["settings.face_match.threshold"]);
    const empty = await a.call("PATCH", `${base()}/${w.id}`, { json: {} });
    expect(empty.status).toBe(400);
    expect((await a.call("GET", `${base()}/${w.id}`)).body.data.workflow.settings.face_match.threshold).toBe(0.7);

    expect((await a.call("GET", `${base()}/not-a-uuid`)).body.error.code).toBe("workflow_not_found");
  });

  it("deactivates (sessions refused with why) and activates again", async () => {
    const w = await createWorkflow({ name: "Liveness only", features: ["liveness"] });
    const off = await a.call("PATCH", `${base()}/${w.id}`, { json: { is_active: false } });
    expect(off.body.data.workflow.is_active).toBe(false);
    const refused = await a.call("POST", `${base()}/${w.id}/test-session`);
    expect(refused.status).toBe(404);
    expect(refused.body.error).toEqual({ code: "workflow_not_found", message: "Workflow is not active: activate it to create sessions" });
    const viaApi = await api("POST", "/api/v2/session", { headers: { "X-API-Key": keyA }, json: { workflow_id: w.id } });
    expect(viaApi.status).toBe(404);
    const on = await a.call("PATCH", `${base()}/${w.id}`, { json: { is_active: true } });
    expect(on.body.data.workflow.is_active).toBe(true);
    expect((await a.call("POST", `${base()}/${w.id}/test-session`)).status).toBe(201);
  });

  it("deletes: sessions already created keep working, new ones are refused, the workflow is gone from lists", async () => {
    const w = await createWorkflow({ name: "Short-lived", features: ["liveness"] });
    const before = await a.call("POST", `${base()}/${w.id}/test-session`);
    expect(before.status).toBe(201);
    const deleted = await a.call("DELETE", `${base()}/${w.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ deleted: true });

    const session = await api("GET", `/api/v2/session/${before.body.data.session_id}`, { headers: { "X-API-Key": keyA } });
    expect(session.status).toBe(200);
    expect(session.body.data.status).toBe("NOT_STARTED");
    const hosted = await fetch(before.body.data.url.split("#")[0]);
    expect(hosted.status).toBe(200);

    for (const [method, path] of [["GET", `${base()}/${w.id}`], ["PATCH", `${base()}/${w.id}`], ["DELETE", `${base()}/${w.id}`], ["POST", `${base()}/${w.id}/test-session`]] as const) {
      const res = await a.call(method, path, method === "PATCH" ? { json: { name: "Back" } } : {});
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe("workflow_not_found");
    }
    const viaApi = await api("POST", "/api/v2/session", { headers: { "X-API-Key": keyA }, json: { workflow_id: w.id } });
    expect(viaApi.status).toBe(404);
    expect(viaApi.body.error.code).toBe("workflow_not_found");
    const list = await a.call("GET", base());
    expect(list.body.data.workflows.map((x: { id: string }) => x.id)).not.toContain(w.id);
  });
});

describe("portal workflows: test session", () => {
  it("creates a session as POST /api/v2/session does and returns the hosted page's URL (token in the fragment)", async () => {
    const w = await createWorkflow({ name: "Test me", features: ["liveness", "face_match"] });
    const res = await a.call("POST", `${base()}/${w.id}/test-session`);
    expect(res.status).toBe(201);
    const { session_id, url, expires_at, features } = res.body.data;
    expect(url).toMatch(new RegExp(`^${shared().url.replace(/[.]/g, "\\.")}/verify/${session_id}#token=st_`));
    expect(features).toEqual(["liveness", "face_match"]);
    expect(Date.parse(expires_at) - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
    const viaApi = await api("GET", `/api/v2/session/${session_id}`, { headers: { "X-API-Key": keyA } });
    expect(viaApi.status).toBe(200);
    expect(viaApi.body.data.workflow_id).toBe(w.id);
  });

  it("applies the wallet rule (402 insufficient_funds, nothing charged) and refuses a deactivated app (403)", async () => {
    const dev = await signUpDeveloper();
    const app = (await dev.call("POST", "/api/portal/apps", { json: { name: "Broke", environment: "production" } })).body.data.app_id as string;
    const w = await createWorkflow({ name: "KYC", features: ["id_verification"] }, dev, app);
    await setWalletBalance(dev.organizationId, 10);
    const poor = await dev.call("POST", `${base(app)}/${w.id}/test-session`);
    expect(poor.status).toBe(402);
    expect(poor.body.error.code).toBe("insufficient_funds");
    expect((await dev.call("GET", "/api/portal/wallet")).body.data.balance).toBe(0.1);

    await setWalletBalance(dev.organizationId, 10_000);
    await dev.call("PATCH", `/api/portal/apps/${app}`, { json: { is_active: false } });
    const inactiveApp = await dev.call("POST", `${base(app)}/${w.id}/test-session`);
    expect(inactiveApp.status).toBe(403);
    expect(inactiveApp.body.error.code).toBe("unauthorized_client");
    await dev.call("PATCH", `/api/portal/apps/${app}`, { json: { is_active: true } });
    expect((await dev.call("POST", `${base(app)}/${w.id}/test-session`)).status).toBe(201);
  });

  it("refuses another app's workflow, even of the same organization (404 workflow_not_found)", async () => {
    const w = await createWorkflow({ name: "Sandbox", features: ["liveness"] }, a, otherAppA);
    for (const [method, path] of [["GET", `${base()}/${w.id}`], ["POST", `${base()}/${w.id}/test-session`]] as const) {
      const res = await a.call(method, path);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("workflow_not_found");
    }
  });
});

describe("portal workflows: the guard", () => {
  it("answers a developer of another organization 404 not_found on every route, and changes nothing", async () => {
    const w = await createWorkflow({ name: "Private", features: ["liveness"] });
    const calls = [
      ["GET", base()],
      ["POST", base(), { json: { name: "Intruder", features: ["liveness"] } }],
      ["GET", `${base()}/${w.id}`],
      ["PATCH", `${base()}/${w.id}`, { json: { is_active: false } }],
      ["DELETE", `${base()}/${w.id}`],
      ["POST", `${base()}/${w.id}/test-session`],
    ] as const;
    for (const [method, path, options] of calls) {
      const res = await b.call(method, path, options);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.success).toBe(false);
      expect(res.body.error.code).toBe("not_found");
      expect(res.text).not.toContain("Private");
    }
    // The owner succeeds on the same routes; nothing the intruder sent happened.
    const mine = await a.call("GET", `${base()}/${w.id}`);
    expect(mine.status).toBe(200);
    expect(mine.body.data.workflow.is_active).toBe(true);
    expect((await a.call("GET", base())).body.data.workflows.some((x: { name: string }) => x.name === "Intruder")).toBe(false);
  });

  it("needs a signed-in developer (401) and the portal's own origin for changes (403)", async () => {
    expect((await api("GET", base())).status).toBe(401);
    const crossSite = await api("POST", base(), { headers: { cookie: a.cookie, origin: "https://evil.example" }, json: { name: "X", features: ["liveness"] } });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.error.code).toBe("cross_site_request");
  });
});
