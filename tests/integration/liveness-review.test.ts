import { beforeAll, describe, expect, it } from "vitest";
import { api, bearer, checkOf, createSession, createWorkflow, keyHeader, shared } from "../support/api";
import { sql } from "../support/database";
import { useServerDatabase } from "../support/domain";
import { imageForm } from "../support/images";
import { licence, personA, postBurst, postDocument } from "../support/kyc";
import { createPortalApp, signUpDeveloper, type PortalDeveloper } from "../support/portal";

/**
 * A reviewer settles a liveness check that went to review (README "Manual
 * review"), on a production app of a developer signed up in the portal:
 * person A's licence, then the photosensitive alternative to the colour
 * challenge (skip_colours), which sends a live burst to review. The session
 * is IN_REVIEW and cannot be approved until a reviewer confirms the live
 * person (API key, or the portal with the developer's session), then it is
 * approved as always.
 */
useServerDatabase();

let dev: PortalDeveloper;
let app: { appId: string; apiKey: string };
let kyc: string;
let livenessOnly: string;
let faceBand: string;

const LIVENESS = { liveness: { actions: ["turn_left", "turn_right"], actions_per_challenge: 2 } };

beforeAll(async () => {
  dev = await signUpDeveloper();
  app = await createPortalApp(dev, "Shop", "production");
  [kyc, livenessOnly, faceBand] = await Promise.all([
    createWorkflow(app, ["id_verification", "liveness", "face_match", "face_uniqueness"], { settings: LIVENESS }),
    createWorkflow(app, ["liveness"], { settings: LIVENESS }),
    // A review band so wide (0.49 up to 0.99) that the same person's licence and burst land in it.
    createWorkflow(app, ["id_verification", "liveness", "face_match"], { settings: { ...LIVENESS, face_match: { threshold: 0.99, review_margin: 0.5 } } }),
  ]);
});

/** The person asks for the alternative without flashing colours and turns as asked: a live burst the engine sends to review. */
async function skipColoursBurst(token: string) {
  const c = await api("POST", "/api/v2/antispoof/challenge", { headers: bearer(token), json: { skip_colours: true } });
  expect(c.status).toBe(201);
  const { challenge_id, actions, colours } = c.body.data as { challenge_id: string; actions: string[]; colours: string[] };
  expect(colours).toEqual([]);
  const res = await api("POST", "/api/v2/antispoof", { headers: bearer(token), form: imageForm({ frames: personA(actions) }, { challenge_id }) });
  expect(res.status).toBe(200);
  expect(checkOf(res, "liveness")).toMatchObject({ status: "review", error: { code: "colour_challenge_skipped" } });
  return res;
}

const reviewCheck = (id: string, type: string, json: unknown) => api("POST", `/api/v2/session/${id}/checks/${type}/review`, { headers: keyHeader(app), json });
const review = (id: string, json: unknown) => reviewCheck(id, "liveness", json);
const decide = (id: string, status: string) => api("PATCH", `/api/v2/session/${id}/status`, { headers: keyHeader(app), json: { status } });
const livenessOf = async (id: string) => checkOf(await api("GET", `/api/v2/session/${id}/decision`, { headers: keyHeader(app) }), "liveness");
const auditOf = (id: string) => sql(shared().env, `SELECT actor, action, data, request_id FROM audit_logs WHERE target = $1 ORDER BY created_at`, [id]);

describe("settling a liveness check in review", () => {
  it("API: approval refused, the reviewer confirms the live person, then the session is approved; audited", async () => {
    const s = await createSession(app, { workflow_id: kyc });
    expect(checkOf(await postDocument(s.session_token, "driving_licence", licence("a")), "id_verification").status).toBe("passed");
    const live = await skipColoursBurst(s.session_token);
    expect(checkOf(live, "face_match").status).toBe("passed");
    // The face is searched and enrolled while its liveness waits for the reviewer (given back if the session is declined).
    expect(checkOf(live, "face_uniqueness")).toMatchObject({ status: "passed", data: { enrolled: true } });
    await api("POST", "/api/v2/flow/finish", { headers: bearer(s.session_token) });
    expect((await api("GET", `/api/v2/session/${s.session_id}`, { headers: keyHeader(app) })).body.data.status).toBe("IN_REVIEW");

    // Nothing else could ever make liveness pass: approval is refused.
    const early = await decide(s.session_id, "APPROVED");
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe("required_face_checks_incomplete");

    for (const body of [{}, { status: "passed" }, { status: "approved", reason: "looked live" }, { status: "passed", reason: "  " }, { status: "passed", reason: "ok fine", note: 1 }]) {
      const bad = await review(s.session_id, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body).toMatchObject({ success: false, error: { code: "invalid_request" } });
    }

    // Another app's key cannot settle it, nor learn that the session exists.
    const outsider = await createPortalApp(dev, "Another shop", "production");
    const foreign = await api("POST", `/api/v2/session/${s.session_id}/checks/liveness/review`, { headers: keyHeader(outsider), json: { status: "passed", reason: "not my session" } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("session_not_found");

    const res = await review(s.session_id, { status: "passed", reason: "Turns left then right; same live face in every frame" });
    expect(res.status).toBe(200);
    expect(res.body.data.session).toMatchObject({ session_id: s.session_id, status: "IN_REVIEW", decided_at: null });
    expect(res.body.data.check).toMatchObject({
      type: "liveness",
      status: "passed",
      error: null,
      data: { manual_review: { status: "passed", reason: "Turns left then right; same live face in every frame", reviewed_at: expect.any(String) } },
    });
    expect(await livenessOf(s.session_id)).toMatchObject({ status: "passed", data: { manual_review: { status: "passed" } } });
    // The evidence names the reviewer and keeps what the machine measured.
    const [row] = await sql(shared().env, `SELECT evidence FROM check_results WHERE session_id = $1 AND type = 'liveness'`, [s.session_id]);
    expect(row.evidence).toMatchObject({
      frames_sha256: expect.any(Array),
      measurements: { colour_challenge: { skipped: true } },
      manual_review: {
        status: "passed",
        actor: expect.stringMatching(/^api_key:sk_live_/),
        request_id: res.headers.get("x-request-id"),
        machine: { status: "review", error: { code: "colour_challenge_skipped" } },
      },
    });

    // Settled once: a second review is refused.
    const again = await review(s.session_id, { status: "failed", reason: "second opinion" });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: { code: "check_not_in_review" }, data: { check: "liveness", status: "passed" } });

    const approved = await decide(s.session_id, "APPROVED");
    expect(approved.status).toBe(200);
    expect(approved.body.data.status).toBe("APPROVED");
    expect((await auditOf(s.session_id)).map((a) => [a.action, a.data.to, a.actor.startsWith("api_key:")])).toEqual([
      ["check.manual_review", "passed", true],
      ["session.manual_decision", "APPROVED", true],
    ]);
    expect((await auditOf(s.session_id))[0]).toMatchObject({ data: { check: "liveness", from: "review", reason: expect.stringContaining("same live face") } });

    // A decided session takes no review.
    const late = await review(s.session_id, { status: "passed", reason: "too late" });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe("review_not_pending");
  }, 120_000);

  it("portal: the burst's frames go to the app's developer only; 'Not a live person' fails the check, and the session can only be declined", async () => {
    const s = await createSession(app, { workflow_id: livenessOnly });
    // An open session is no reviewer's business yet.
    expect((await review(s.session_id, { status: "passed", reason: "too early" })).body.error.code).toBe("review_not_pending");
    await skipColoursBurst(s.session_token);
    await api("POST", "/api/v2/flow/finish", { headers: bearer(s.session_token) });

    const detail = await dev.call("GET", `/api/portal/apps/${app.appId}/sessions/${s.session_id}`);
    expect(detail.body.data).toMatchObject({ settle: ["liveness"], can_approve: false });
    expect(detail.body.data.settle_images).toEqual({ liveness: [1, 2, 3, 4, 5].map((n) => `liveness_frame_${n}`) });
    const frame = `/api/portal/apps/${app.appId}/sessions/${s.session_id}/images/liveness_frame_1`;
    const mine = await fetch(`${shared().url}${frame}`, { headers: { cookie: dev.cookie } });
    expect(mine.status).toBe(200);
    expect(mine.headers.get("content-type")).toBe("image/jpeg");
    expect(mine.headers.get("cache-control")).toMatch(/no-store/);
    expect((await fetch(`${shared().url}${frame}`)).status).toBe(401);
    const stranger = await signUpDeveloper();
    expect((await stranger.call("GET", frame)).status).toBe(404);
    expect((await stranger.call("POST", `/api/portal/apps/${app.appId}/sessions/${s.session_id}/checks/liveness/review`, { json: { status: "passed", reason: "not mine" } })).status).toBe(404);

    const res = await dev.call("POST", `/api/portal/apps/${app.appId}/sessions/${s.session_id}/checks/liveness/review`, {
      json: { status: "failed", reason: "The same still photo in every frame" },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.check).toMatchObject({ status: "failed", error: { code: "manual_review_failed", message: expect.stringContaining("did not confirm a live person") } });
    expect(await auditOf(s.session_id)).toEqual([
      { actor: `developer:${dev.email}`, action: "check.manual_review", data: expect.objectContaining({ to: "failed" }), request_id: res.headers.get("x-request-id") },
    ]);
    expect((await dev.call("GET", `/api/portal/apps/${app.appId}/sessions/${s.session_id}`)).body.data).toMatchObject({ settle: [], settle_images: {} });
    expect((await decide(s.session_id, "APPROVED")).body.error.code).toBe("required_face_checks_incomplete");
    expect((await decide(s.session_id, "DECLINED")).body.data.status).toBe("DECLINED");
    // Retention: a decided session keeps no frames.
    expect(await sql(shared().env, `SELECT kind FROM session_artifacts WHERE session_id = $1`, [s.session_id])).toEqual([]);
  }, 120_000);
});

describe("settling a face match in review (spec 3.1 extension)", () => {
  it("API and portal: the face match in the review band blocks approval; the reviewer sees the document beside the liveness frame, says 'same person', then approves; audited", async () => {
    const s = await createSession(app, { workflow_id: faceBand });
    expect(checkOf(await postDocument(s.session_token, "driving_licence", licence("a")), "id_verification").status).toBe("passed");
    const live = await postBurst(s.session_token);
    expect(checkOf(live, "liveness").status).toBe("passed");
    const machine = checkOf(live, "face_match");
    expect(machine).toMatchObject({ status: "review", data: { threshold: 0.99 } });
    await api("POST", "/api/v2/flow/finish", { headers: bearer(s.session_token) });
    expect((await api("GET", `/api/v2/session/${s.session_id}`, { headers: keyHeader(app) })).body.data.status).toBe("IN_REVIEW");
    expect((await decide(s.session_id, "APPROVED")).body.error.code).toBe("required_face_checks_incomplete");

    // The portal's review view: face match to settle, judged on the document's front and the best liveness frame.
    const detail = await dev.call("GET", `/api/portal/apps/${app.appId}/sessions/${s.session_id}`);
    expect(detail.body.data).toMatchObject({ settle: ["face_match"], settle_images: { face_match: ["document_front", "selfie"] }, can_approve: false });

    // Only the three checks spec 3.1's approval needs can be settled; another type is a clear 400, in the API and the portal.
    for (const type of ["age", "face_uniqueness", "nonsense"]) {
      const bad = await reviewCheck(s.session_id, type, { status: "passed", reason: "looks fine" });
      expect(bad.status, type).toBe(400);
      expect(bad.body).toMatchObject({ success: false, error: { code: "invalid_request", message: expect.stringContaining("id_verification, liveness, face_match") } });
    }
    const portalBad = await dev.call("POST", `/api/portal/apps/${app.appId}/sessions/${s.session_id}/checks/age/review`, { json: { status: "passed", reason: "looks fine" } });
    expect(portalBad.status).toBe(400);
    expect(portalBad.body.error.code).toBe("invalid_request");
    // Checks that are not in review are refused as before.
    expect((await reviewCheck(s.session_id, "id_verification", { status: "passed", reason: "fine" })).body).toMatchObject({ error: { code: "check_not_in_review" }, data: { check: "id_verification", status: "passed" } });

    const res = await reviewCheck(s.session_id, "face_match", { status: "passed", reason: "Same face shape, eyes and ears as the licence portrait" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      check: { type: "face_match", status: "passed", error: null, data: { similarity: machine.data.similarity, manual_review: { status: "passed", reason: expect.stringContaining("licence portrait") } } },
      session: { session_id: s.session_id, status: "IN_REVIEW" },
    });
    expect((await dev.call("GET", `/api/portal/apps/${app.appId}/sessions/${s.session_id}`)).body.data).toMatchObject({ settle: [], can_approve: true });

    const approved = await decide(s.session_id, "APPROVED");
    expect(approved.status).toBe(200);
    expect(approved.body.data.status).toBe("APPROVED");
    expect((await auditOf(s.session_id)).map((a) => [a.action, a.data.check ?? null, a.data.to])).toEqual([
      ["check.manual_review", "face_match", "passed"],
      ["session.manual_decision", null, "APPROVED"],
    ]);
  }, 120_000);
});
