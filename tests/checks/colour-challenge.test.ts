import { beforeAll, describe, expect, it } from "vitest";
import { SCREEN_COLOURS } from "@/lib/liveness/colour-challenge";
import { api, bearer, createSession, createTenant, createWorkflow, keyHeader, shared, type Tenant } from "../support/api";
import { useServerDatabase } from "../support/domain";
import { fixture, imageForm } from "../support/images";
import { PERFORMS } from "../support/kyc";
import { underScreenLight } from "../support/screen-light";

/**
 * The colour challenge over HTTP (docs/hosted-flow.md "Liveness: the colour challenge"),
 * on the production server (NODE_ENV=production) with a production app:
 * every challenge carries the colours the page must show, and a burst whose
 * light does not follow them never passes, whatever its head turns.
 */
useServerDatabase();

let t: Tenant;
let workflow: string;

type Challenge = { challenge_id: string; actions: string[]; colours: string[]; colour_settle_ms: number; attempts_left: number };

beforeAll(async () => {
  t = await createTenant(shared().env, "production");
  workflow = await createWorkflow(t, ["liveness"], { settings: { liveness: { actions: ["turn_left", "turn_right"], actions_per_challenge: 2, max_attempts: 3 } } });
});

async function challenge(token: string, body?: Record<string, unknown>) {
  const res = await api("POST", "/api/v2/antispoof/challenge", { headers: bearer(token), json: body });
  expect(res.status).toBe(201);
  return res.body.data as Challenge;
}

/** Person A performing the challenge's turns, as the camera recorded him (no screen light). */
const recording = (c: Challenge) => [1, 2, 3, 4, 5].map((i) => fixture("faces", PERFORMS[c.actions.join()]!, `${i}.jpg`));

async function sendBurst(token: string, c: Challenge, frames: Buffer[]) {
  const res = await api("POST", "/api/v2/antispoof", { headers: bearer(token), form: imageForm({ frames }, { challenge_id: c.challenge_id }) });
  expect(res.status).toBe(200);
  return res.body.data.checks[0] as { status: string; score: number; error: { code: string; message: string } | null };
}

/** The liveness check's stored evidence of the colour challenge. */
async function colourEvidence(sessionId: string) {
  const { db } = await import("@/lib/db/client");
  const row = await (await db()).checkResult.findUnique({ where: { sessionId_type: { sessionId, type: "liveness" } } });
  return (row?.evidence as any)?.measurements?.colour_challenge;
}

/** The complement of a screen colour (red <-> cyan, ...): light that goes against it. */
const complement = (hex: string) => `#${(0xffffff ^ parseInt(hex.slice(1), 16)).toString(16).padStart(6, "0")}`;

describe("the colour challenge", () => {
  it("each challenge carries 8 screen colours from the palette, any 3 in a row different, drawn anew each time", async () => {
    const s = await createSession(t, { workflow_id: workflow });
    const seen = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const c = await challenge(s.session_token);
      expect(c.colours).toHaveLength(8);
      expect(c.colour_settle_ms).toBeGreaterThanOrEqual(300);
      c.colours.forEach((colour, k) => {
        expect(SCREEN_COLOURS).toContain(colour);
        if (k >= 1) expect(colour).not.toBe(c.colours[k - 1]);
        if (k >= 2) expect(colour).not.toBe(c.colours[k - 2]);
      });
      seen.add(c.colours.join());
    }
    expect(seen.size).toBe(3);
  });

  it("a face lit by the challenge's colours passes; its evidence shows the response following the colours", async () => {
    const s = await createSession(t, { workflow_id: workflow });
    const c = await challenge(s.session_token);
    const check = await sendBurst(s.session_token, c, await underScreenLight(recording(c), c.colours));
    expect(check).toMatchObject({ status: "passed", error: null });
    const evidence = await colourEvidence(s.session_id);
    expect(evidence).toMatchObject({ skipped: false, verdict: "follows" });
    expect(evidence.frames.map((f: { colour: string }) => f.colour)).toEqual(c.colours.slice(0, 5));
  });

  it("the same head turns recorded without the screen's light, or under an earlier challenge's colours, never pass", async () => {
    const s = await createSession(t, { workflow_id: workflow });
    const earlier = await challenge(s.session_token);
    const live = await underScreenLight(recording(earlier), earlier.colours); // what a recorder kept of an earlier answer
    const c1 = await challenge(s.session_token);
    const replayed = await sendBurst(s.session_token, c1, c1.actions.join() === earlier.actions.join() ? live : await underScreenLight(recording(c1), earlier.colours));
    expect(replayed.status).not.toBe("passed");
    expect((await colourEvidence(s.session_id)).verdict).not.toBe("follows");
    const c2 = await challenge(s.session_token);
    const unlit = await sendBurst(s.session_token, c2, recording(c2));
    expect(unlit.status).not.toBe("passed");
    expect((await colourEvidence(s.session_id)).verdict).not.toBe("follows");
  });

  it("light that goes against the screen's colours is declined as spoof_suspected, the evidence naming the colour response", async () => {
    const s = await createSession(t, { workflow_id: workflow });
    const c = await challenge(s.session_token);
    const check = await sendBurst(s.session_token, c, await underScreenLight(recording(c), c.colours.map(complement)));
    expect(check).toMatchObject({ status: "failed", score: 0, error: { code: "spoof_suspected" } });
    expect(JSON.stringify(check)).not.toMatch(/colour|correlation/);
    const evidence = await colourEvidence(s.session_id);
    expect(evidence).toMatchObject({ verdict: "contradicts" });
    expect(evidence.correlation).toBeLessThan(0);
  });

  it("too little light on the face (a bright room) is a review the person may retake, never a decline", async () => {
    const s = await createSession(t, { workflow_id: workflow });
    const c = await challenge(s.session_token);
    const check = await sendBurst(s.session_token, c, await underScreenLight(recording(c), c.colours, { strength: 0.01 }));
    expect(check).toMatchObject({ status: "review", error: { code: "colour_response_unclear" } });
    expect(check.score).toBeLessThan(0.5);
    expect(await colourEvidence(s.session_id)).toMatchObject({ verdict: "inconclusive" });
    // The retake, in front of a brighter screen, passes.
    const again = await challenge(s.session_token);
    expect(await sendBurst(s.session_token, again, await underScreenLight(recording(again), again.colours))).toMatchObject({ status: "passed" });
  });

  it("the photosensitive alternative (skip_colours) draws no colours and sends a burst that passes everything else to review", async () => {
    const s = await createSession(t, { workflow_id: workflow });
    const c = await challenge(s.session_token, { skip_colours: true });
    expect(c.colours).toEqual([]);
    const check = await sendBurst(s.session_token, c, recording(c));
    expect(check).toMatchObject({ status: "review", error: { code: "colour_challenge_skipped" } });
    await api("POST", "/api/v2/flow/finish", { headers: bearer(s.session_token) });
    const decision = await api("GET", `/api/v2/session/${s.session_id}/decision`, { headers: keyHeader(t) });
    expect(decision.body.data.status).toBe("IN_REVIEW");
  });
});
