import { beforeAll, describe, expect, it } from "vitest";
import { api, createSession, createTenant, createWorkflow, keyHeader, shared, type Tenant, bearer, checkOf } from "../support/api";
import { useServerDatabase } from "../support/domain";
import { blankImage, faceCell, fixture } from "../support/images";
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
