import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createSession, createTenant, createWorkflow, keyHeader, shared, type Tenant, bearer, checkOf } from "../support/api";
import pg from "pg";
import { databaseUrl, sql } from "../support/database";
import { seedGallery } from "../support/gallery-seed";
import { randomTemplate, seededRandom } from "../support/synthetic-faces";
import { useServerDatabase } from "../support/domain";
import { startServer, type RunningServer } from "../support/server";
import { blankImage, faceCell, fixture, imageForm } from "../support/images";
import { licence, postBurst, postDocument } from "../support/kyc";

/**
 * The checks engine end to end over HTTP, on the committed fixtures
 * (tests/fixtures/README.md): person A's documents and head-turn burst,
 * person B's documents. The liveness challenge is random and each one is an
 * attempt: like a person, the test performs what the challenge asks, sending
 * the burst of person A turning in that order (a-left-right or a-right-left).
 */
useServerDatabase();

let t: Tenant;
let kyc: string;
/** Without the age check: person B (19) is then no reason to stop, so face match runs on her document (item 21). */
let kycAnyAge: string;
beforeAll(async () => {
  // A production app: the checks run as they do for a live integration.
  t = await createTenant(shared().env, "production");
  kyc = await createWorkflow(t, ["id_verification", "liveness", "face_match", "age", "location"], {
    settings: { liveness: { actions: ["turn_left", "turn_right"], actions_per_challenge: 2 }, age: { minimum_age: 21 } },
  });
  kycAnyAge = await createWorkflow(t, ["id_verification", "liveness", "face_match", "location"], {
    settings: { liveness: { actions: ["turn_left", "turn_right"], actions_per_challenge: 2 } },
  });
});

/**
 * A generated screen replay (tests/fixtures/attacks) of person A performing
 * these turns, one whose moire survived the camera: the replay's identity
 * holds across frames, so only the presentation-attack signals can refuse it.
 */
const SCREEN_REPLAYS: Record<string, string> = { "turn_left,turn_right": "screen-03", "turn_right,turn_left": "screen-07" };
const screenReplay = (performed: string[]) => [1, 2, 3, 4, 5].map((i) => fixture("attacks", SCREEN_REPLAYS[performed.join()]!, `${i}.jpg`));

const check = checkOf;

describe("a full KYC session on person A's fixtures", () => {
  it("document -> liveness -> face match -> location -> APPROVED, with proofs but no raw identity data", async () => {
    const { db } = await import("@/lib/db/client");
    const prisma = await db();
    const s = await createSession(t, { workflow_id: kyc, redirect_url: "https://shop.example/done" });

    const doc = await postDocument(s.session_token, "driving_licence", licence("a"));
    expect(doc.status).toBe(200);
    expect(check(doc, "id_verification")).toMatchObject({
      status: "passed",
      data: { reused: false, document_type: "driving_licence", source: "pdf417", checks: { read: true, not_expired: true, portrait_found: true, front_matches_back: true }, front_mismatched_fields: [] },
      error: null,
    });
    expect(check(doc, "age")).toMatchObject({ status: "passed", data: { is_18_plus: true, is_21_plus: true, minimum_age: 21, meets_minimum_age: true } });
    expect(check(doc, "face_match")).toBeUndefined(); // no selfie yet
    expect(doc.text).not.toMatch(/JORDAN|SAMPLE|S4829105|1990/);

    const live = await postBurst(s.session_token);
    expect(live.status).toBe(200);
    expect(check(live, "liveness")).toMatchObject({ status: "passed", error: null });
    expect(check(live, "liveness").data.live_score).toBeGreaterThanOrEqual(0.5);
    const match = check(live, "face_match");
    expect(match).toMatchObject({ status: "passed", data: { threshold: 0.61 } });
    expect(match.data.similarity).toBeGreaterThanOrEqual(0.61);

    const loc = await api("POST", "/api/v2/location", { headers: bearer(s.session_token), json: { lat: 38.58, lng: -121.49 } });
    expect(loc.body.data.status).toBe("passed");
    // Images and templates are kept, sealed, until the decision.
    const kept = await prisma.sessionArtifact.findMany({ where: { sessionId: s.session_id } });
    expect(kept.map((a) => a.kind).sort()).toEqual(["document_back", "document_fields", "document_front", "portrait_template", "selfie", "selfie_template"]);
    for (const a of kept) expect(Buffer.from(a.sealed).toString("latin1")).not.toContain("JORDAN");

    const done = await api("POST", "/api/v2/flow/finish", { headers: bearer(s.session_token) });
    expect(done.body.data).toMatchObject({ status: "APPROVED", redirect_url: `https://shop.example/done?status=approved&session_id=${s.session_id}` });
    const decision = await api("GET", `/api/v2/session/${s.session_id}/decision`, { headers: keyHeader(t) });
    expect(decision.body.data).toMatchObject({
      status: "APPROVED",
      verifications: { id_verification: { status: "passed" }, liveness: { status: "passed" }, face_match: { status: "passed" }, age: { status: "passed" }, location: { status: "passed" } },
    });
    expect(decision.text).not.toMatch(/JORDAN|SAMPLE|S4829105|1990-04-12/);

    // Retention: nothing of the person is left once decided; the audit trail keeps hashes, models, timings.
    expect(await prisma.sessionArtifact.count({ where: { sessionId: s.session_id } })).toBe(0);
    const rows = await prisma.checkResult.findMany({ where: { sessionId: s.session_id } });
    const evidence = Object.fromEntries(rows.map((r) => [r.type, r.evidence as Record<string, any>]));
    const { createHash } = await import("node:crypto");
    expect(evidence.id_verification!.front_sha256).toBe(createHash("sha256").update(licence("a").front).digest("hex"));
    expect(evidence.id_verification!.models).toMatchObject({ faces: expect.stringMatching(/^human@/), pdf417: expect.stringMatching(/zxing/) });
    expect(evidence.liveness!.frames_sha256).toHaveLength(5);
    expect(evidence.liveness!.measurements.actions_detected).toHaveLength(2);
    // Billed once per check, retries included.
    const charges = await prisma.ledgerEntry.count({ where: { reference: { startsWith: `check:${s.session_id}:` } } });
    expect(charges).toBe(5);
  });

  it("person B (19) under the minimum age of 21: the age check fails and the session is DECLINED at the document", async () => {
    const s = await createSession(t, { workflow_id: kyc });
    const doc = await postDocument(s.session_token, "driving_licence", licence("b"));
    expect(check(doc, "id_verification").status).toBe("passed");
    expect(check(doc, "age")).toMatchObject({ status: "failed", data: { is_18_plus: true, is_21_plus: false, meets_minimum_age: false }, error: { code: "under_minimum_age" } });
    expect(doc.body.data.session_status).toBe("DECLINED");
  });

  it("person B's licence against person A's face: face match fails -> DECLINED", async () => {
    const s = await createSession(t, { workflow_id: kycAnyAge });
    const doc = await postDocument(s.session_token, "driving_licence", licence("b"));
    expect(check(doc, "id_verification").status).toBe("passed");
    const live = await postBurst(s.session_token);
    expect(check(live, "liveness").status).toBe("passed");
    const match = check(live, "face_match");
    expect(match.status).toBe("failed");
    expect(match.data.similarity).toBeLessThan(0.53);
    await api("POST", "/api/v2/location", { headers: bearer(s.session_token), json: { lat: 1, lng: 2 } });
    const done = await api("POST", "/api/v2/flow/finish", { headers: bearer(s.session_token) });
    expect(done.body.data.status).toBe("DECLINED");
  });

  it("a burst in the wrong order fails liveness, and a retaken document re-runs face match", async () => {
    const s = await createSession(t, { workflow_id: kycAnyAge });
    const wrong = await postBurst(s.session_token, "reverse");
    expect(check(wrong, "liveness")).toMatchObject({ status: "failed", error: { code: "action_not_detected" } });
    expect(check(wrong, "liveness").data.live_score).toBeLessThan(0.5);
    const b = await postDocument(s.session_token, "driving_licence", licence("b"));
    expect(check(b, "face_match").status).toBe("failed");
    const a = await postDocument(s.session_token, "driving_licence", licence("a"));
    expect(check(a, "face_match").status).toBe("passed");
    const flow = await api("GET", "/api/v2/flow", { headers: bearer(s.session_token) });
    const steps = Object.fromEntries(flow.body.data.steps.map((x: { type: string }) => [x.type, x]));
    expect(steps.id_verification).toMatchObject({ status: "passed", attempts: 2 });
    expect(steps.face_match).toMatchObject({ status: "passed", attempts: 2, derived: true }); // once per document, with the burst's selfie
  });
});

describe("presentation attacks over HTTP", () => {
  it("a screen replay of A's head turns, in the order asked, fails spoof_suspected and says nothing of the signals", async () => {
    const s = await createSession(t, { workflow_id: kyc });
    const replay = await postBurst(s.session_token, "as_asked", screenReplay, undefined, { screenLight: false });
    expect(replay.status).toBe(200);
    expect(check(replay, "liveness")).toMatchObject({ status: "failed", score: 0, data: { live_score: 0 }, error: { code: "spoof_suspected" } });
    expect(JSON.stringify(replay.body)).not.toMatch(/texture|glare|moire|residual|threshold|flat/);
    // The person can still prove they are live on a later attempt: the real A passes.
    const live = await postBurst(s.session_token, "as_asked");
    expect(check(live, "liveness")).toMatchObject({ status: "passed", error: null });
  });
});

describe("POST /api/v2/document", () => {
  it("an expired licence fails id_verification; a passport with a broken check digit fails too", async () => {
    const wf = await createWorkflow(t, ["id_verification"]);
    const s1 = await createSession(t, { workflow_id: wf });
    const expired = await postDocument(s1.session_token, "driving_licence", licence("a-expired"));
    expect(check(expired, "id_verification")).toMatchObject({ status: "failed", data: { checks: { not_expired: false } }, error: { code: "document_expired" } });
    const s2 = await createSession(t, { workflow_id: wf });
    const forged = await postDocument(s2.session_token, "passport", { front: fixture("documents", "passport-a-bad-check-digit.jpg") });
    expect(check(forged, "id_verification")).toMatchObject({ status: "failed", data: { source: "mrz", checks: { check_digits_valid: false } }, error: { code: "check_digits_invalid" } });
    const s3 = await createSession(t, { workflow_id: wf });
    const passport = await postDocument(s3.session_token, "passport", { front: fixture("documents", "passport-a-degraded.jpg") });
    expect(check(passport, "id_verification")).toMatchObject({ status: "passed", data: { source: "mrz", checks: { check_digits_valid: true } } });
  });

  it("input to retake is 422 and not recorded: no barcode, no portrait, not an image; missing sides and disallowed types are 400", async () => {
    const wf = await createWorkflow(t, ["id_verification"], { settings: { id_verification: { allowed_documents: ["driving_licence"] } } });
    const s = await createSession(t, { workflow_id: wf });
    const a = licence("a");
    const noBarcode = await postDocument(s.session_token, "driving_licence", { front: a.front, back: a.front });
    expect(noBarcode.status).toBe(422);
    expect(noBarcode.body.error.code).toBe("invalid_image");
    expect(noBarcode.body.data).toMatchObject({ field: "back", reason: "barcode_not_found" });
    const noPortrait = await postDocument(s.session_token, "driving_licence", { front: await blankImage(640, 400), back: a.back });
    expect(noPortrait.status).toBe(422);
    expect(noPortrait.body.error.code).toBe("no_face");
    const notImage = await postDocument(s.session_token, "driving_licence", { front: Buffer.from("%PDF-1.4 not an image"), back: a.back });
    expect(notImage.status).toBe(422);
    expect(notImage.body.error.code).toBe("invalid_image");
    const noBack = await postDocument(s.session_token, "driving_licence", { front: a.front });
    expect(noBack.status).toBe(400);
    expect(noBack.body.error.code).toBe("invalid_image");
    const passport = await postDocument(s.session_token, "passport", { front: fixture("documents", "passport-a.jpg") });
    expect(passport.status).toBe(400);
    expect(passport.body.error.code).toBe("invalid_request");
    const badType = await postDocument(s.session_token, "library_card", a);
    expect(badType.status).toBe(400);
    const flow = await api("GET", "/api/v2/flow", { headers: bearer(s.session_token) });
    expect(flow.body.data.steps[0]).toMatchObject({ type: "id_verification", status: "pending", attempts: 0 });
  });
});

describe("the front of a licence or ID card against its back", () => {
  let wf: string;
  beforeAll(async () => {
    wf = await createWorkflow(t, ["id_verification"]);
  });
  const docs = (front: string, back: string) => ({ front: fixture("documents", front), back: fixture("documents", back) });

  it("person A's front with person B's barcode fails document_inconsistent (fields named, no values) and the session is DECLINED", async () => {
    const s = await createSession(t, { workflow_id: wf });
    const doc = await postDocument(s.session_token, "driving_licence", docs("licence-a-front.jpg", "licence-b-back.jpg"));
    expect(doc.status).toBe(200);
    const id = check(doc, "id_verification");
    expect(id).toMatchObject({ status: "failed", data: { source: "pdf417", checks: { read: true, portrait_found: true, front_matches_back: false } }, error: { code: "document_inconsistent" } });
    expect(id.data.front_mismatched_fields).toEqual(expect.arrayContaining(["date_of_birth"]));
    expect(id.error.message).toMatch(/date of birth/);
    expect(doc.text).not.toMatch(/JORDAN|SAMPLE|RILEY|EXAMPLE|S4829105|E7654321|1990|2007/);
    const done = await api("POST", "/api/v2/flow/finish", { headers: bearer(s.session_token) });
    expect(done.body.data.status).toBe("DECLINED");
    // The audit trail says how each field compared, never what was read.
    const { db } = await import("@/lib/db/client");
    const row = await (await db()).checkResult.findFirst({ where: { sessionId: s.session_id, type: "id_verification" } });
    const evidence = row!.evidence as Record<string, any>;
    expect(evidence.front_consistency).toMatchObject({ verdict: "inconsistent", fields: { name: "not_found", date_of_birth: "mismatch" } });
    expect(evidence.timings_ms.front_ocr).toBeGreaterThan(0);
    expect(JSON.stringify(evidence)).not.toMatch(/JORDAN|RILEY|S4829105|E7654321/);
  });

  it("person B's ID card front with person A's MRZ back fails too", async () => {
    const s = await createSession(t, { workflow_id: wf });
    const doc = await postDocument(s.session_token, "id_card", docs("id-card-b-front.jpg", "id-card-a-back.jpg"));
    expect(check(doc, "id_verification")).toMatchObject({ status: "failed", data: { source: "mrz", checks: { front_matches_back: false } }, error: { code: "document_inconsistent" } });
  });

  it("a single altered field (the barcode's date of birth) fails; a birth year one digit away goes to review", async () => {
    const s1 = await createSession(t, { workflow_id: wf });
    const altered = await postDocument(s1.session_token, "driving_licence", docs("licence-a-front.jpg", "licence-a-back-altered-dob.jpg"));
    expect(check(altered, "id_verification")).toMatchObject({ status: "failed", data: { front_mismatched_fields: ["date_of_birth"] }, error: { code: "document_inconsistent" } });
    const s2 = await createSession(t, { workflow_id: wf });
    const oneDigit = await postDocument(s2.session_token, "driving_licence", docs("licence-b-front.jpg", "licence-b-back-altered-dob-one-digit.jpg"));
    expect(check(oneDigit, "id_verification")).toMatchObject({ status: "review", data: { checks: { front_matches_back: null } }, error: { code: "front_uncertain" } });
  });

  it("a front with a portrait but no readable text goes to review (front_unreadable), never a pass on the barcode alone", async () => {
    const sharp = (await import("sharp")).default;
    const front = await sharp({ create: { width: 1012, height: 638, channels: 3, background: { r: 230, g: 236, b: 244 } } })
      .composite([{ input: await faceCell(0, 0, 300), left: 44, top: 130 }])
      .jpeg()
      .toBuffer();
    const s = await createSession(t, { workflow_id: wf });
    const doc = await postDocument(s.session_token, "driving_licence", { front, back: licence("a").back });
    expect(doc.status).toBe(200);
    expect(check(doc, "id_verification")).toMatchObject({ status: "review", data: { checks: { read: true, portrait_found: true, front_matches_back: null } }, error: { code: "front_unreadable" } });
  });

  it("a genuine card of another layout passes: labels in three languages, day-first dates, an umlaut the MRZ spells OE, the number in groups", async () => {
    const s = await createSession(t, { workflow_id: wf });
    const doc = await postDocument(s.session_token, "id_card", docs("id-card-c-front.jpg", "id-card-c-back.jpg"));
    expect(check(doc, "id_verification")).toMatchObject({ status: "passed", data: { source: "mrz", checks: { check_digits_valid: true, front_matches_back: true }, front_mismatched_fields: [] }, error: null });
  });

  it("a surname that is not on the front goes to a person (review), never passes and never declines on the name alone", async () => {
    const s = await createSession(t, { workflow_id: wf });
    const doc = await postDocument(s.session_token, "id_card", docs("id-card-c-front.jpg", "id-card-c-back-other-surname.jpg"));
    expect(check(doc, "id_verification")).toMatchObject({ status: "review", data: { checks: { front_matches_back: null } }, error: { code: "front_unconfirmed" } });
    const { db } = await import("@/lib/db/client");
    const row = await (await db()).checkResult.findFirst({ where: { sessionId: s.session_id, type: "id_verification" } });
    expect(row!.evidence).toMatchObject({ front_consistency: { verdict: "uncertain", fields: { name: "not_found", date_of_birth: "match" } }, problems: expect.arrayContaining(["front_not_found:name"]) });
  });

  it("consistent documents still pass: person B's ID card, the phone photo of A's licence", async () => {
    const s1 = await createSession(t, { workflow_id: wf });
    const card = await postDocument(s1.session_token, "id_card", docs("id-card-b-front.jpg", "id-card-b-back.jpg"));
    expect(check(card, "id_verification")).toMatchObject({ status: "passed", data: { checks: { front_matches_back: true } } });
    const s2 = await createSession(t, { workflow_id: wf });
    const photo = await postDocument(s2.session_token, "driving_licence", docs("licence-a-front-degraded.jpg", "licence-a-back-degraded.jpg"));
    expect(check(photo, "id_verification")).toMatchObject({ status: "passed", data: { checks: { front_matches_back: true } } });
  });
});

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
