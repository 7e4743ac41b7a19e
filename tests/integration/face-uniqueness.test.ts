import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createSession, createTenant, createWorkflow, keyHeader, shared, type Tenant, bearer, checkOf } from "../support/api";
import pg from "pg";
import { databaseUrl, sql } from "../support/database";
import { seedGallery } from "../support/gallery-seed";
import { randomTemplate, seededRandom } from "../support/synthetic-faces";
import { useServerDatabase } from "../support/domain";
import { startServer, type RunningServer } from "../support/server";
import { blankImage, faceCell, fixture, imageForm } from "../support/images";

/**
 * Face uniqueness (spec 4.3) over HTTP: the 1:N search of the app's
 * enrolled faces, enrolment, unlinking, and one face in ten sessions at the
 * same moment. The gallery, its search and the per-app lock live in the
 * database, so this file runs on both databases (the rest of the checks
 * engine is in tests/checks).
 */
useServerDatabase();

let t: Tenant;
beforeAll(async () => {
  // A production app: the checks run as they do for a live integration.
  t = await createTenant(shared().env, "production");
});

const check = checkOf;

describe("face uniqueness (spec 4.3)", () => {
  let selfieOnly: string;
  beforeAll(async () => {
    selfieOnly = await createWorkflow(t, ["face_uniqueness"]);
  });

  async function enroll(image: Buffer) {
    const s = await createSession(t, { workflow_id: selfieOnly });
    const res = await api("POST", "/api/v2/face-uniqueness", { headers: bearer(s.session_token), form: imageForm({ image }) });
    expect(res.status).toBe(200);
    return check(res, "face_uniqueness");
  }

  it("enrolls a new face, finds it again (naming its svc_uuid), unlinks it, then enrolls anew", async () => {
    const a = fixture("faces", "a-left-right", "1.jpg");
    const first = await enroll(a);
    expect(first).toMatchObject({ status: "passed", data: { duplicate: false, enrolled: true, threshold: 0.68 } });
    const again = await enroll(await faceCell(10, 0, 320));
    expect(again).toMatchObject({ data: { svc_uuid: first.data.svc_uuid, duplicate: true, threshold: 0.68, decline_threshold: 0.79 } });
    expect(again.data.similarity).toBeGreaterThanOrEqual(0.68);
    // A certain match fails (duplicate_face); a closer call goes to review (possible_duplicate_face).
    expect(again.error.code).toBe(again.data.similarity >= 0.79 ? "duplicate_face" : "possible_duplicate_face");
    expect(again.status).toBe(again.data.similarity >= 0.79 ? "failed" : "review");
    const b = await enroll(await faceCell(6, 1, 320));
    expect(b.status).toBe("passed");
    expect(b.data.svc_uuid).not.toBe(first.data.svc_uuid);

    const unlink = await api("DELETE", `/api/v2/face-uniqueness/${first.data.svc_uuid}`, { headers: keyHeader(t) });
    expect(unlink.status).toBe(200);
    expect(unlink.body.data).toEqual({ svc_uuid: first.data.svc_uuid, unlinked: true, deleted: true });
    const { db } = await import("@/lib/db/client");
    expect(await (await db()).faceIdentity.findUnique({ where: { id: first.data.svc_uuid } })).toBeNull();
    const twice = await api("DELETE", `/api/v2/face-uniqueness/${first.data.svc_uuid}`, { headers: keyHeader(t) });
    expect(twice.status).toBe(404);
    expect(twice.body.error.code).toBe("not_found");
    const back = await enroll(a);
    expect(back).toMatchObject({ status: "passed", data: { duplicate: false } });
    expect(back.data.svc_uuid).not.toBe(first.data.svc_uuid);
  });

  it("another project neither sees nor unlinks this project's faces; without the feature it is 403", async () => {
    const mine = await enroll(await faceCell(12, 0, 320));
    const other = await createTenant();
    const forbidden = await api("DELETE", `/api/v2/face-uniqueness/${mine.data.svc_uuid}`, { headers: keyHeader(other) });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe("feature_not_allowed");
    const otherWf = await createWorkflow(other, ["face_uniqueness"]);
    const missing = await api("DELETE", `/api/v2/face-uniqueness/${mine.data.svc_uuid}`, { headers: keyHeader(other) });
    expect(missing.status).toBe(404);
    const s = await createSession(other, { workflow_id: otherWf });
    const theirs = await api("POST", "/api/v2/face-uniqueness", { headers: bearer(s.session_token), form: imageForm({ image: await faceCell(12, 0, 320) }) });
    expect(check(theirs, "face_uniqueness")).toMatchObject({ status: "passed", data: { duplicate: false } });
    expect((await api("DELETE", "/api/v2/face-uniqueness/not-a-uuid", { headers: keyHeader(t) })).status).toBe(404);
  });

  it("a face stays enrolled with an approved session; a session that ends otherwise gives its face back", async () => {
    const u = await createTenant(); // a gallery of its own
    const wf = await createWorkflow(u, ["face_uniqueness"]);
    const selfie = async (image: Buffer, ttl_seconds?: number) => {
      const s = await createSession(u, { workflow_id: wf, ...(ttl_seconds ? { ttl_seconds } : {}) });
      const res = await api("POST", "/api/v2/face-uniqueness", { headers: bearer(s.session_token), form: imageForm({ image }) });
      return { s, result: check(res, "face_uniqueness") };
    };
    const a = await selfie(await faceCell(13, 0, 320));
    expect(a.result.status).toBe("passed");
    expect((await api("POST", "/api/v2/flow/finish", { headers: bearer(a.s.session_token) })).body.data.status).toBe("APPROVED");

    const left = await selfie(await faceCell(7, 1, 320), 300);
    expect(left.result.status).toBe("passed");
    // The person walks away: the session is abandoned at its expiry, and its face goes.
    const { expireDueSessions } = await import("@/lib/sessions/expire-sessions");
    await expireDueSessions({ appId: u.appId, at: new Date(Date.now() + 301_000) });
    const { db } = await import("@/lib/db/client");
    expect(await (await db()).faceIdentity.findUnique({ where: { id: left.result.data.svc_uuid } })).toBeNull();

    expect((await selfie(await faceCell(7, 1, 320))).result.status).toBe("passed"); // not a duplicate of the abandoned try
    expect((await selfie(await faceCell(13, 0, 320))).result.data).toMatchObject({ duplicate: true, svc_uuid: a.result.data.svc_uuid });
  });

  it("a selfie with no face or two faces is 422 no_face, a face too small 422 face_rescan_required; nothing is recorded", async () => {
    const s = await createSession(t, { workflow_id: selfieOnly });
    const blank = await api("POST", "/api/v2/face-uniqueness", { headers: bearer(s.session_token), form: imageForm({ image: await blankImage() }) });
    expect(blank.status).toBe(422);
    expect(blank.body.error.code).toBe("no_face");
    const two = await api("POST", "/api/v2/face-uniqueness", { headers: bearer(s.session_token), form: imageForm({ image: fixture("faces", "two-faces", "2.jpg") }) });
    expect(two.status).toBe(422);
    expect(two.body.error.code).toBe("no_face");
    // A face found but too small to compare reliably (a 40 px face far from the camera): rescan.
    const sharp = (await import("sharp")).default;
    const far = await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 200, g: 200, b: 200 } } })
      .composite([{ input: await faceCell(10, 0, 40), left: 380, top: 250 }])
      .jpeg()
      .toBuffer();
    const small = await api("POST", "/api/v2/face-uniqueness", { headers: bearer(s.session_token), form: imageForm({ image: far }) });
    expect(small.status).toBe(422);
    expect(small.body.error.code).toBe("face_rescan_required");
    const flow = await api("GET", "/api/v2/flow", { headers: bearer(s.session_token) });
    expect(flow.body.data.steps[0]).toMatchObject({ type: "face_uniqueness", status: "pending", attempts: 0 });
  });
});

/**
 * Issue 33: two sessions of one face searching at the same moment must not
 * both find the gallery without the other and both enrol. This file's own
 * server runs three vision threads (VISION_THREADS=3), so identical selfies
 * finish their inference together (with the default single thread on 2
 * cores they arrive one by one), and the project's gallery has just grown by
 * 20,000 faces (seeded as an import would), so the first search catches its
 * index up while the others arrive and queue behind it: they reach the
 * search at the same moment, as a burst of sign-ups does.
 */
describe("issue 33: face uniqueness under concurrent sessions (production app)", { timeout: 240_000 }, () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ ...shared().env, VISION_THREADS: "3", VISION_PRELOAD: "on" });
    while (!server.output().includes("vision models loaded")) {
      expect(server.output()).not.toContain("vision models did not load");
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("ten sessions of one face at the same moment: exactly one is unique and enrolled, the nine others its duplicates", async () => {
    const u = await createTenant(); // a gallery of its own
    const wf = await createWorkflow(u, ["face_uniqueness"]);
    const image = fixture("faces", "a-left-right", "1.jpg");
    const sessions = await Promise.all(Array.from({ length: 10 }, () => createSession(u, { workflow_id: wf })));
    const client = new pg.Client({ connectionString: databaseUrl(shared().env) });
    await client.connect();
    try {
      const random = seededRandom(33);
      await seedGallery(client, u.appId, Array.from({ length: 20_000 }, () => randomTemplate(random)));
    } finally {
      await client.end();
    }
    const results = await Promise.all(
      sessions.map(async (s) => {
        const res = await api("POST", "/api/v2/face-uniqueness", { base: server.url, headers: bearer(s.session_token), form: imageForm({ image }) });
        expect(res.status).toBe(200);
        return check(res, "face_uniqueness");
      }),
    );
    const unique = results.filter((r) => r.status === "passed");
    expect(unique).toHaveLength(1);
    expect(unique[0]).toMatchObject({ data: { duplicate: false, enrolled: true } });
    for (const r of results.filter((x) => x !== unique[0])) {
      expect(r).toMatchObject({ data: { duplicate: true, svc_uuid: unique[0].data.svc_uuid } });
      expect(["failed", "review"]).toContain(r.status);
      expect(r.error.code).toBe(r.status === "failed" ? "duplicate_face" : "possible_duplicate_face");
    }
    const enrolled = await sql(shared().env, "SELECT count(*)::int AS n FROM face_enrollments WHERE app_id = $1 AND status = 'active' AND session_id IS NOT NULL", [u.appId]);
    expect(enrolled).toEqual([{ n: 1 }]);
  });
});
