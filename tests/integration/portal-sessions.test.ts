import { beforeAll, describe, expect, it } from "vitest";
import { api, createSession, createWorkflow, keyHeader, shared } from "../support/api";
import { useServerDatabase } from "../support/domain";
import { signUpDeveloper, type PortalDeveloper } from "../support/portal";
import { keptImages, reviewResults, seedSession, type KeptImages } from "../support/review-sessions";

/**
 * Sessions and the review queue in the developer portal, over HTTP against
 * the real server: the list's filters and keyset cursor, one session with
 * its checks and audit trail, the queue (oldest first) with the engine's
 * reasons, Approve / Decline through the portal with the API's 409s and the
 * developer as the audited actor, the kept images (no-store, 404 once
 * decided), and a 404 on every route for another organization.
 */
useServerDatabase();

let a: PortalDeveloper;
let b: PortalDeveloper;
let appA: string;
let appB: string;
let tenantA: { apiKey: string };
let workflow: string;
let images: KeptImages;

const base = () => `/api/portal/apps/${appA}/sessions`;

beforeAll(async () => {
  [a, b, images] = await Promise.all([signUpDeveloper(), signUpDeveloper(), keptImages()]);
  const [createdA, createdB] = await Promise.all([
    a.call("POST", "/api/portal/apps", { json: { name: "Shop", environment: "test" } }),
    b.call("POST", "/api/portal/apps", { json: { name: "Other shop", environment: "test" } }),
  ]);
  expect(createdA.status).toBe(201);
  appA = createdA.body.data.app_id;
  appB = createdB.body.data.app_id;
  tenantA = { apiKey: createdA.body.data.api_key };
  workflow = await createWorkflow(tenantA, ["id_verification", "liveness", "face_match", "age"]);
});

describe("sessions list", () => {
  it("pages newest first with a cursor, without overlap or gap, and filters on status and vendor_data", async () => {
    const made: string[] = [];
    for (let i = 0; i < 27; i++) made.push((await createSession(tenantA, { workflow_id: workflow, vendor_data: "bulk" })).session_id);
    const review = await seedSession(tenantA, workflow, { vendorData: "bulk", results: reviewResults(true) });

    const seen: Array<{ session_id: string; created_at: string; status: string }> = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await a.call("GET", `${base()}?vendor_data=bulk${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.sessions);
      cursor = res.body.data.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(2);
    expect(seen).toHaveLength(28);
    expect(new Set(seen.map((s) => s.session_id)).size).toBe(28);
    // Newest first: the review session was made last; the first one made is last.
    expect(seen[0]!.session_id).toBe(review);
    expect(seen.at(-1)!.session_id).toBe(made[0]);
    const times = seen.map((s) => Date.parse(s.created_at));
    expect(times).toEqual([...times].sort((x, y) => y - x));
    // The same order the API lists (spec 4.1: newest first by created_at).
    const viaApi = await api("GET", "/api/v2/session?vendor_data=bulk&limit=100", { headers: keyHeader(tenantA) });
    expect(viaApi.body.data.sessions.map((s: { session_id: string }) => s.session_id)).toEqual(seen.map((s) => s.session_id));

    const inReview = await a.call("GET", `${base()}?status=IN_REVIEW&vendor_data=bulk`);
    expect(inReview.body.data.sessions.map((s: { session_id: string }) => s.session_id)).toEqual([review]);
    expect(inReview.body.data.next_cursor).toBeNull();
    const notStarted = await a.call("GET", `${base()}?status=NOT_STARTED&vendor_data=bulk`);
    expect(notStarted.body.data.sessions).toHaveLength(25);
    expect(notStarted.body.data.sessions.every((s: { status: string }) => s.status === "NOT_STARTED")).toBe(true);
    // A blank field is "any" (the filter form sends every field).
    const blank = await a.call("GET", `${base()}?status=&vendor_data=bulk`);
    expect(blank.body.data.sessions).toHaveLength(25);
    const none = await a.call("GET", `${base()}?vendor_data=nobody`);
    expect(none.body.data).toEqual({ sessions: [], next_cursor: null });
  });

  it("refuses an unknown status and a forged cursor with 400 and the field named", async () => {
    const status = await a.call("GET", `${base()}?status=DONE`);
    expect(status.status).toBe(400);
    expect(Object.keys(status.body.data.errors)).toEqual(["status"]);
    const cursor = await a.call("GET", `${base()}?cursor=not-a-cursor`);
    expect(cursor.status).toBe(400);
    expect(cursor.body.data.errors).toEqual({ cursor: ["Invalid cursor"] });
  });
});

describe("review queue, decisions and the audit trail", () => {
  it("lists IN_REVIEW sessions oldest first with checks, scores, the engine's reasons and the kept images", async () => {
    const first = await seedSession(tenantA, workflow, { vendorData: "queue-1", results: reviewResults(false), images });
    const second = await seedSession(tenantA, workflow, { vendorData: "queue-2", results: reviewResults(true), images });
    const res = await a.call("GET", `${base()}/review-queue`);
    expect(res.status).toBe(200);
    const queue = res.body.data.sessions as Array<Record<string, any>>;
    expect(queue.every((q) => q.session.status === "IN_REVIEW")).toBe(true);
    const ids = queue.map((q) => q.session.session_id);
    expect(ids.indexOf(first)).toBeLessThan(ids.indexOf(second));
    const one = queue.find((q) => q.session.session_id === first)!;
    expect(one.images).toEqual(["document_front", "document_back", "selfie"]);
    expect(one.can_approve).toBe(false);
    expect(one.reasons).toEqual([{ check: "face_match", code: null, message: null, score: 0.58, data: { similarity: 0.58, threshold: 0.61 } }]);
    expect(one.checks.map((c: { type: string; status: string }) => [c.type, c.status])).toEqual([
      ["id_verification", "passed"],
      ["liveness", "passed"],
      ["face_match", "review"],
      ["age", "passed"],
    ]);
    expect(queue.find((q) => q.session.session_id === second)!.can_approve).toBe(true);
  });

  it("serves a kept image decrypted, as the bytes saved, never cached; 404 for other kinds", async () => {
    const id = await seedSession(tenantA, workflow, { results: reviewResults(true), images });
    const front = await fetch(`${shared().url}${base()}/${id}/images/document_front`, { headers: { cookie: a.cookie } });
    expect(front.status).toBe(200);
    expect(front.headers.get("content-type")).toBe("image/jpeg");
    expect(front.headers.get("cache-control")).toBe("no-store");
    expect(front.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await front.arrayBuffer()).equals(images.document_front)).toBe(true);
    const back = await a.call("GET", `${base()}/${id}/images/document_back`);
    expect(back.headers.get("content-type")).toBe("image/png");
    for (const kind of ["portrait_template", "document_fields", "nothing"]) {
      const res = await a.call("GET", `${base()}/${id}/images/${kind}`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("image_not_found");
    }
    // An open session's images are not a reviewer's: 404 until it is IN_REVIEW.
    const open = await seedSession(tenantA, workflow, { results: { liveness: "passed" }, images, finish: false });
    expect((await a.call("GET", `${base()}/${open}/images/selfie`)).status).toBe(404);
  });

  it("approves through the portal: audited with the developer, images gone, out of the queue; a second decision is 409", async () => {
    const id = await seedSession(tenantA, workflow, { vendorData: "approve-me", results: reviewResults(true), images });
    const approved = await a.call("PATCH", `${base()}/${id}/status`, { json: { status: "APPROVED" } });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ session_id: id, status: "APPROVED", vendor_data: "approve-me" });
    expect(approved.body.data.decided_at).not.toBeNull();

    const detail = await a.call("GET", `${base()}/${id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({ session: { session_id: id, status: "APPROVED" }, decision: "approved", images: [], can_approve: false });
    expect(detail.body.data.checks).toHaveLength(4);
    expect(detail.body.data.checks[0]).toMatchObject({ type: "id_verification", status: "passed", score: 0.91, attempts: 1, recorded_at: expect.any(String) });
    expect(detail.body.data.audit).toEqual([
      {
        id: expect.any(String),
        action: "session.manual_decision",
        actor: { kind: "developer", label: a.email },
        data: { from: "IN_REVIEW", to: "APPROVED", at: expect.any(String) },
        request_id: approved.headers.get("x-request-id"),
        created_at: expect.any(String),
      },
    ]);
    // The API sees the same decision.
    const decision = await api("GET", `/api/v2/session/${id}/decision`, { headers: keyHeader(tenantA) });
    expect(decision.body.data).toMatchObject({ status: "APPROVED", decision: "approved" });

    for (const kind of ["document_front", "document_back", "selfie"]) {
      expect((await a.call("GET", `${base()}/${id}/images/${kind}`)).status).toBe(404);
    }
    const queue = await a.call("GET", `${base()}/review-queue`);
    expect(queue.body.data.sessions.map((q: { session: { session_id: string } }) => q.session.session_id)).not.toContain(id);

    for (const to of ["APPROVED", "DECLINED"]) {
      const again = await a.call("PATCH", `${base()}/${id}/status`, { json: { status: to } });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ success: false, data: { status: "APPROVED" }, error: { code: "review_not_pending" } });
    }
    // As through the API.
    const viaApi = await api("PATCH", `/api/v2/session/${id}/status`, { headers: keyHeader(tenantA), json: { status: "DECLINED" } });
    expect(viaApi.status).toBe(409);
    expect((await a.call("GET", `${base()}/${id}`)).body.data.audit).toHaveLength(1);
  });

  it("refuses to approve without the three face checks passed (409, unchanged), declines, and validates the body as the API does", async () => {
    const id = await seedSession(tenantA, workflow, { results: reviewResults(false), images });
    const approve = await a.call("PATCH", `${base()}/${id}/status`, { json: { status: "APPROVED" } });
    expect(approve.status).toBe(409);
    expect(approve.body.error.code).toBe("required_face_checks_incomplete");
    expect((await a.call("GET", `${base()}/${id}`)).body.data).toMatchObject({ session: { status: "IN_REVIEW" }, audit: [] });
    for (const json of [{}, { status: "approved" }, { status: "APPROVED", note: "x" }]) {
      const bad = await a.call("PATCH", `${base()}/${id}/status`, { json });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe("invalid_request");
    }
    // Cross-site: no Origin of the portal, refused before anything changes.
    const crossSite = await api("PATCH", `${base()}/${id}/status`, { headers: { cookie: a.cookie, origin: "https://evil.example" }, json: { status: "DECLINED" } });
    expect(crossSite.status).toBe(403);
    const declined = await a.call("PATCH", `${base()}/${id}/status`, { json: { status: "DECLINED" } });
    expect(declined.status).toBe(200);
    expect(declined.body.data.status).toBe("DECLINED");
    const detail = (await a.call("GET", `${base()}/${id}`)).body.data;
    expect(detail.audit.map((e: { actor: { label: string }; data: { to: string } }) => [e.actor.label, e.data.to])).toEqual([[a.email, "DECLINED"]]);
    expect((await a.call("GET", `${base()}/${id}/images/selfie`)).status).toBe(404);
  });

  it("answers 404 session_not_found for an unknown or malformed session id", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
      const res = await a.call("GET", `${base()}/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("session_not_found");
    }
  });
});

describe("another organization", () => {
  it("gets 404 on every sessions route of the app, and the same through its own app; nothing changes", async () => {
    const id = await seedSession(tenantA, workflow, { vendorData: "private", results: reviewResults(true), images });
    const routes: Array<[string, string, unknown?]> = [
      ["GET", `/api/portal/apps/${appA}/sessions`],
      ["GET", `/api/portal/apps/${appA}/sessions/review-queue`],
      ["GET", `/api/portal/apps/${appA}/sessions/${id}`],
      ["PATCH", `/api/portal/apps/${appA}/sessions/${id}/status`, { status: "DECLINED" }],
      ["GET", `/api/portal/apps/${appA}/sessions/${id}/images/document_front`],
    ];
    for (const [method, path, json] of routes) {
      const res = await b.call(method, path, { json });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe("not_found");
      expect(res.text).not.toContain("private");
    }
    // The session id under the other organization's own app: not theirs either.
    for (const [method, path, json] of routes.slice(2)) {
      const res = await b.call(method!, path!.replace(appA, appB), { json });
      expect(res.status, `${method} ${path} via app B`).toBe(404);
      expect(res.body.error.code).toBe("session_not_found");
    }
    const own = await b.call("GET", `/api/portal/apps/${appB}/sessions`);
    expect(own.body.data.sessions).toEqual([]);
    // Without a session at all: 401.
    expect((await api("GET", `/api/portal/apps/${appA}/sessions`)).status).toBe(401);
    expect((await api("GET", `/api/portal/apps/${appA}/sessions/${id}/images/selfie`)).status).toBe(401);
    // The owner still sees it in review, images and all.
    const detail = (await a.call("GET", `/api/portal/apps/${appA}/sessions/${id}`)).body.data;
    expect(detail).toMatchObject({ session: { status: "IN_REVIEW" }, images: ["document_front", "document_back", "selfie"], audit: [] });
    expect((await a.call("GET", `/api/portal/apps/${appA}/sessions/${id}/images/document_front`)).status).toBe(200);
  });
});
