import { beforeAll, describe, expect, it } from "vitest";
import { api, createSession, createTenant, createWorkflow, keyHeader, type Tenant, bearer } from "../support/api";
import { useServerDatabase } from "../support/domain";
import { blankImage, faceCell, fixture, imageForm } from "../support/images";
import { underScreenLight } from "../support/screen-light";

/**
 * The liveness step's server API (docs/hosted-flow.md "Hosted-flow API"): the challenge
 * (single use, 60 s, each one an attempt), the burst's refusals in the
 * spec's codes, and the per-session upload budget. The full KYC flow on
 * passing bursts is in checks-engine.test.ts.
 */
useServerDatabase();

let t: Tenant;
let livenessOnly: string;

beforeAll(async () => {
  t = await createTenant();
  livenessOnly = await createWorkflow(t, ["liveness"], { settings: { liveness: { actions: ["turn_left", "turn_right"], actions_per_challenge: 2, max_attempts: 2 } } });
});

type Challenge = { challenge_id: string; actions: string[]; colours: string[]; expires_in: number; expires_at: string; frames: { min: number; max: number }; attempts_left: number };

async function challenge(token: string) {
  const res = await api("POST", "/api/v2/antispoof/challenge", { headers: bearer(token) });
  expect(res.status).toBe(201);
  return res.body.data as Challenge;
}

async function frontalFrames(n = 3) {
  return Promise.all(Array.from({ length: n }, (_, i) => faceCell(i % 3, 0)));
}

/** Person A performing `actions` (the committed bursts, tests/fixtures/faces/README.md) in front of the challenge's screen colours. */
function burstPerforming(actions: string[], c: Pick<Challenge, "colours">) {
  const name = { "turn_left,turn_right": "a-left-right", "turn_right,turn_left": "a-right-left" }[actions.join()];
  if (!name) throw new Error(`no fixture burst performs ${actions.join(", ")}`);
  return underScreenLight([1, 2, 3, 4, 5].map((i) => fixture("faces", name, `${i}.jpg`)), c.colours);
}

async function sendBurst(token: string, challengeId: string, frames: Buffer[]) {
  return api("POST", "/api/v2/antispoof", { headers: bearer(token), form: imageForm({ frames }, { challenge_id: challengeId }) });
}

async function livenessStep(token: string) {
  const flow = await api("GET", "/api/v2/flow", { headers: bearer(token) });
  return flow.body.data.steps.find((x: { type: string }) => x.type === "liveness") as { status: string; attempts: number };
}

describe("POST /api/v2/antispoof/challenge", () => {
  it("issues the workflow's actions in a random order, valid 60 seconds, never the same action twice in a row", async () => {
    const seen = new Set<string>();
    let token = "";
    // Two challenges per session (the workflow's max_attempts), six sessions.
    for (let i = 0; i < 12; i++) {
      const s = i % 2 === 0 ? await createSession(t, { workflow_id: livenessOnly }) : null;
      if (s) token = s.session_token;
      const c = await challenge(token);
      expect(c.actions).toHaveLength(2);
      expect(c.actions[0]).not.toBe(c.actions[1]);
      for (const a of c.actions) expect(["turn_left", "turn_right"]).toContain(a);
      expect(c.expires_in).toBe(60);
      expect(Date.parse(c.expires_at) - Date.now()).toBeGreaterThan(50_000);
      expect(c.frames).toMatchObject({ min: 3, max: 8 });
      seen.add(c.actions.join(","));
    }
    // Both orders come up (chance of not seeing one in 12 draws: 2 * 0.5^12).
    expect(seen).toEqual(new Set(["turn_left,turn_right", "turn_right,turn_left"]));
  });

  it("a session without a liveness step gets 400", async () => {
    const wf = await createWorkflow(t, ["location"]);
    const s = await createSession(t, { workflow_id: wf });
    const res = await api("POST", "/api/v2/antispoof/challenge", { headers: bearer(s.session_token) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
  });
});

describe("liveness attempts: every challenge issued is one", () => {
  it("within max_attempts each challenge works and says what is left; the next one is 429 too_many_attempts, used or not", async () => {
    const s = await createSession(t, { workflow_id: livenessOnly });
    expect(await livenessStep(s.session_token)).toMatchObject({ status: "pending", attempts: 0 });
    const first = await challenge(s.session_token);
    expect(first.attempts_left).toBe(1);
    // Asked for and never used (the person pressed Stop, or reloaded): still an attempt.
    const second = await challenge(s.session_token);
    expect(second.attempts_left).toBe(0);
    expect(await livenessStep(s.session_token)).toMatchObject({ status: "pending", attempts: 2 });
    const refused = await api("POST", "/api/v2/antispoof/challenge", { headers: bearer(s.session_token) });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("too_many_attempts");
    expect(refused.body.data).toEqual({ attempts: 2, max_attempts: 2 });
    // The last challenge issued is still judged: its attempt was counted when it was issued.
    const res = await sendBurst(s.session_token, second.challenge_id, await burstPerforming(second.actions, second));
    expect(res.status).toBe(200);
    expect(res.body.data.checks[0]).toMatchObject({ type: "liveness", status: "passed" });
  });

  it("re-asking until the order fits a recording is over after max_attempts: the attacker sees at most max_attempts orders", async () => {
    const s = await createSession(t, { workflow_id: livenessOnly });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await api("POST", "/api/v2/antispoof/challenge", { headers: bearer(s.session_token) })).status);
    expect(statuses).toEqual([201, 201, 429, 429, 429, 429]);
  });

  it("challenges asked for at the same moment cannot take more than max_attempts", async () => {
    const s = await createSession(t, { workflow_id: livenessOnly });
    const answers = await Promise.all(Array.from({ length: 6 }, () => api("POST", "/api/v2/antispoof/challenge", { headers: bearer(s.session_token) })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 201, 429, 429, 429, 429]);
    expect(answers.filter((a) => a.status === 201).map((a) => a.body.data.attempts_left).sort()).toEqual([0, 1]);
    expect((await livenessStep(s.session_token)).attempts).toBe(2);
  });

  it("a burst uses its challenge once: the same challenge again is 403 and counts nothing more", async () => {
    const s = await createSession(t, { workflow_id: livenessOnly });
    const c = await challenge(s.session_token);
    const wrongOrder = await burstPerforming([...c.actions].reverse(), c);
    const first = await sendBurst(s.session_token, c.challenge_id, wrongOrder);
    expect(first.status).toBe(200);
    expect(first.body.data.checks[0]).toMatchObject({ type: "liveness", status: "failed", error: { code: "action_not_detected" } });
    const again = await sendBurst(s.session_token, c.challenge_id, await burstPerforming(c.actions, c));
    expect(again.status).toBe(403);
    expect(again.body.error.code).toBe("invalid_challenge");
    expect(await livenessStep(s.session_token)).toMatchObject({ status: "failed", attempts: 1 });
    const next = await challenge(s.session_token);
    expect(next.attempts_left).toBe(0);
  });

  it("a passed liveness is final: no new challenge (409 liveness_already_passed), billed once, still passed", async () => {
    const { db } = await import("@/lib/db/client");
    const s = await createSession(t, { workflow_id: livenessOnly });
    const c = await challenge(s.session_token);
    expect(c.attempts_left).toBe(1);
    const passed = await sendBurst(s.session_token, c.challenge_id, await burstPerforming(c.actions, c));
    expect(passed.body.data.checks[0]).toMatchObject({ type: "liveness", status: "passed" });
    const again = await api("POST", "/api/v2/antispoof/challenge", { headers: bearer(s.session_token) });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("liveness_already_passed");
    expect(await livenessStep(s.session_token)).toMatchObject({ status: "passed", attempts: 1 });
    const charges = await (await db()).ledgerEntry.findMany({ where: { reference: `check:${s.session_id}:liveness` } });
    expect(charges).toHaveLength(1);
    const decision = await api("GET", `/api/v2/session/${s.session_id}/decision`, { headers: keyHeader(t) });
    expect(decision.body.data.checks[0]).toMatchObject({ type: "liveness", status: "passed" });
  });

  it("a challenge issued before the pass cannot replace the passed result", async () => {
    const { db } = await import("@/lib/db/client");
    const s = await createSession(t, { workflow_id: livenessOnly });
    const c = await challenge(s.session_token);
    // A second open challenge, as when another tab asked while the first burst was being judged
    // (written to the database: over HTTP that interleaving is a matter of luck).
    const late = await (await db()).livenessChallenge.create({ data: { sessionId: s.session_id, actions: c.actions, colours: c.colours, expiresAt: new Date(Date.now() + 60_000) } });
    expect((await sendBurst(s.session_token, c.challenge_id, await burstPerforming(c.actions, c))).body.data.checks[0].status).toBe("passed");
    const replay = await sendBurst(s.session_token, late.id, await frontalFrames(4));
    expect(replay.status).toBe(409);
    expect(replay.body.error.code).toBe("liveness_already_passed");
    expect((await livenessStep(s.session_token)).status).toBe("passed");
  });
});

describe("POST /api/v2/antispoof (the burst)", () => {
  it("frames_required, invalid_frames, too_many_frames before the challenge is touched", async () => {
    const s = await createSession(t, { workflow_id: livenessOnly });
    const c = await challenge(s.session_token);
    const frame = await faceCell(0, 0);
    const cases: Array<[number, string]> = [[0, "frames_required"], [2, "invalid_frames"], [9, "too_many_frames"]];
    for (const [n, code] of cases) {
      const files: Record<string, Buffer[]> = n ? { frames: Array.from({ length: n }, () => frame) } : {};
      const res = await api("POST", "/api/v2/antispoof", { headers: bearer(s.session_token), form: imageForm(files, { challenge_id: c.challenge_id }) });
      expect(res.status, code).toBe(400);
      expect(res.body.error.code).toBe(code);
    }
    // The challenge is still good: a valid burst uses it.
    const ok = await api("POST", "/api/v2/antispoof", { headers: bearer(s.session_token), form: imageForm({ frames: await frontalFrames() }, { challenge_id: c.challenge_id }) });
    expect(ok.status).toBe(200);
  });

  it("a challenge is single use, and a newer one replaces the older", async () => {
    const s = await createSession(t, { workflow_id: livenessOnly });
    const first = await challenge(s.session_token);
    const second = await challenge(s.session_token);
    const frames = await frontalFrames();
    const old = await api("POST", "/api/v2/antispoof", { headers: bearer(s.session_token), form: imageForm({ frames }, { challenge_id: first.challenge_id }) });
    expect(old.status).toBe(403);
    expect(old.body.error.code).toBe("invalid_challenge");
    const used = await api("POST", "/api/v2/antispoof", { headers: bearer(s.session_token), form: imageForm({ frames }, { challenge_id: second.challenge_id }) });
    expect(used.status).toBe(200);
    const again = await api("POST", "/api/v2/antispoof", { headers: bearer(s.session_token), form: imageForm({ frames }, { challenge_id: second.challenge_id }) });
    expect(again.status).toBe(403);
    expect(again.body.error.code).toBe("invalid_challenge");
    const missing = await api("POST", "/api/v2/antispoof", { headers: bearer(s.session_token), form: imageForm({ frames }) });
    expect(missing.body.error.code).toBe("invalid_challenge");
  });

  it("another session's challenge is invalid; an expired one is 400 challenge_expired", async () => {
    const { db } = await import("@/lib/db/client");
    const a = await createSession(t, { workflow_id: livenessOnly });
    const b = await createSession(t, { workflow_id: livenessOnly });
    const ca = await challenge(a.session_token);
    const frames = await frontalFrames();
    const cross = await api("POST", "/api/v2/antispoof", { headers: bearer(b.session_token), form: imageForm({ frames }, { challenge_id: ca.challenge_id }) });
    expect(cross.body.error.code).toBe("invalid_challenge");
    // 61 seconds later (moved in the database: the server has no test-only clock).
    await (await db()).livenessChallenge.update({ where: { id: ca.challenge_id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    const late = await api("POST", "/api/v2/antispoof", { headers: bearer(a.session_token), form: imageForm({ frames }, { challenge_id: ca.challenge_id }) });
    expect(late.status).toBe(400);
    expect(late.body.error.code).toBe("challenge_expired");
  });

  it("a frame that is not an image is 422 invalid_image; no face anywhere is 422 no_face; neither records a result, but each challenge was an attempt", async () => {
    const s = await createSession(t, { workflow_id: livenessOnly });
    const text = Buffer.from("definitely not a jpeg");
    let c = await challenge(s.session_token);
    const bad = await api("POST", "/api/v2/antispoof", { headers: bearer(s.session_token), form: imageForm({ frames: [await faceCell(0, 0), text, await faceCell(1, 0)] }, { challenge_id: c.challenge_id }) });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatchObject({ code: "invalid_image" });
    expect(bad.body.data).toEqual({ field: "frames[1]" });
    c = await challenge(s.session_token);
    const blank = await blankImage();
    const empty = await api("POST", "/api/v2/antispoof", { headers: bearer(s.session_token), form: imageForm({ frames: [blank, blank, blank] }, { challenge_id: c.challenge_id }) });
    expect(empty.status).toBe(422);
    expect(empty.body.error.code).toBe("no_face");
    const flow = await api("GET", "/api/v2/flow", { headers: bearer(s.session_token) });
    expect(flow.body.data.steps[0]).toMatchObject({ type: "liveness", status: "pending", attempts: 2 });
    expect((await api("POST", "/api/v2/antispoof/challenge", { headers: bearer(s.session_token) })).body.error.code).toBe("too_many_attempts");
  });

  it("a frame over 20 MB is 413 image_too_large", async () => {
    const s = await createSession(t, { workflow_id: livenessOnly });
    const c = await challenge(s.session_token);
    const huge = Buffer.alloc(21 * 1024 * 1024, 1);
    const res = await api("POST", "/api/v2/antispoof", { headers: bearer(s.session_token), form: imageForm({ frames: [huge, huge, huge] }, { challenge_id: c.challenge_id }) });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("image_too_large");
  });

  it("a still face that never turns fails the check; after max_attempts failures a new challenge is 429 too_many_attempts", async () => {
    const s = await createSession(t, { workflow_id: livenessOnly });
    for (let attempt = 1; attempt <= 2; attempt++) {
      const c = await challenge(s.session_token);
      const res = await api("POST", "/api/v2/antispoof", { headers: bearer(s.session_token), form: imageForm({ frames: await frontalFrames(4) }, { challenge_id: c.challenge_id }) });
      expect(res.status).toBe(200);
      expect(res.body.data.checks[0]).toMatchObject({ type: "liveness", status: "failed" });
      expect(res.body.data.checks[0].error).not.toBeNull();
    }
    const refused = await api("POST", "/api/v2/antispoof/challenge", { headers: bearer(s.session_token) });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("too_many_attempts");
    const decision = await api("GET", `/api/v2/session/${s.session_id}/decision`, { headers: keyHeader(t) });
    expect(decision.body.data.checks[0]).toMatchObject({ type: "liveness", status: "failed", data: { live_score: expect.any(Number) } });
  });

  it("uploads are rate limited per session (30 per 10 minutes), other sessions unaffected", async () => {
    const s = await createSession(t, { workflow_id: livenessOnly });
    const form = () => imageForm({ frames: [] });
    let last = 0;
    for (let i = 0; i < 31; i++) last = (await api("POST", "/api/v2/antispoof", { headers: bearer(s.session_token), form: form() })).status;
    expect(last).toBe(429);
    const other = await createSession(t, { workflow_id: livenessOnly });
    expect((await api("POST", "/api/v2/antispoof", { headers: bearer(other.session_token), form: form() })).status).toBe(400);
  });
});
