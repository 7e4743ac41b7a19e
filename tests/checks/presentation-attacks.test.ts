import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluationBursts, judgeEvaluationBurst, misjudged, summarise, type BurstResult, type Renderer } from "@/lib/liveness/pad-evaluation";
import { closeVisionPool } from "@/lib/vision/pool";

/**
 * The presentation-attack evaluation of `npm run eval:liveness`, in the test
 * suite, through the real face engine and the production liveness verdict
 * (no options, the defaults), on two renderers that share no code:
 *  - A (tests/fixtures/attacks, where the thresholds were chosen): printed
 *    photos tilted to fake the turns, screen replays of a real burst, photos
 *    held still; every one refused, no live burst refused;
 *  - B (tests/fixtures/attacks-b, held out): other photos and people, phone
 *    screens (OLED diamond, LCD BGR stripe, high and low DPI), dithered
 *    curled prints, another camera. Its live bursts pass, its prints and
 *    stills are refused; replays of a real head turn on a high-DPI screen
 *    still pass the texture and parallax cues (known gap, below).
 */
let results: BurstResult[] = [];
const resultOf = (name: string) => results.find((r) => r.burst.name === name)!;
const of = (renderer: Renderer, kind?: string) => results.filter((r) => r.burst.renderer === renderer && (!kind || r.burst.kind === kind));
const outcome = (r: BurstResult) => `${r.burst.name}: ${r.verdict.error?.code ?? "passed"}`;

beforeAll(async () => {
  for (const burst of evaluationBursts()) results.push(await judgeEvaluationBurst(burst));
}, 300_000);
afterAll(() => closeVisionPool());

describe("presentation-attack evaluation, renderer A (thresholds chosen here)", () => {
  it("covers every kind on both renderers: live bursts, printed photos, screen replays, photos held still", () => {
    const kinds = summarise(results).map((s) => [`${s.renderer} ${s.kind}`, s.bursts]);
    expect(Object.fromEntries(kinds)).toEqual({ "A live": 12, "A print": 8, "A screen": 8, "A still": 6, "B live": 8, "B print": 6, "B screen": 8, "B still": 4 });
  });

  it("APCER is 0% on every attack kind and BPCER 0% on the live bursts", () => {
    expect(of("A").filter(misjudged).map(outcome)).toEqual([]);
  });

  it("the live bursts pass with no presentation-attack signal, their turns well clear of the flat-turn limit", () => {
    for (const r of results.filter((x) => x.burst.kind === "live")) {
      const pad = r.verdict.data.presentation_attack;
      expect(pad.suspected, r.burst.name).toBe(false);
      for (const turn of pad.signals.turns) expect(turn.residual!, r.burst.name).toBeGreaterThan(1.5 * turn.flat_below);
    }
  });

  it("a print's halftone and a screen's moire are flagged on their own as spoof_suspected", () => {
    for (const name of ["print-04", "print-05", "print-07", "print-08", "screen-03", "screen-04", "screen-07", "still-print-02"]) {
      const { verdict } = resultOf(name);
      expect(verdict.data.presentation_attack.reasons, name).toContain("screen_or_print_texture");
    }
    // A screen replay performs the real turns in the order asked: only the PAD verdict refuses it.
    const replay = resultOf("screen-03").verdict;
    expect(replay.data.actions_detected.every((a) => a.detected)).toBe(true);
    expect(replay).toMatchObject({ status: "failed", live_score: 0, error: { code: "spoof_suspected" } });
  });

  it("a printed photo tilted as a flat sheet never reads as a head turn (both renderers)", () => {
    for (const r of results.filter((x) => x.burst.kind === "print")) {
      const yaw = r.verdict.data.yaw_deg.filter((y): y is number => y !== null);
      expect(Math.max(...yaw) - Math.min(...yaw), r.burst.name).toBeLessThan(12);
      expect(r.verdict.status, r.burst.name).toBe("failed");
    }
  });
});

describe("presentation-attack evaluation, renderer B (held out)", () => {
  it("BPCER 0%: every live burst through camera B passes, with no presentation-attack signal", () => {
    expect(of("B", "live").filter(misjudged).map(outcome)).toEqual([]);
    for (const r of of("B", "live")) expect(r.verdict.data.presentation_attack.reasons, r.burst.name).toEqual([]);
  });

  it("every curled, dithered print (rotated or held still) and every still screen is refused", () => {
    const refused = [...of("B", "print"), ...of("B", "still")];
    expect(refused.filter(misjudged).map(outcome)).toEqual([]);
  });

  it("a replay on a low-DPI LCD whose grid survives the camera is refused as spoof_suspected while performing the turns asked", () => {
    const { verdict } = resultOf("b-screen-02");
    expect(verdict.data.actions_detected.every((a) => a.detected)).toBe(true);
    expect(verdict).toMatchObject({ status: "failed", error: { code: "spoof_suspected" } });
  });

  // Known gap (docs/hosted-flow.md "Presentation attacks"): a replay of a real head turn on a screen whose
  // pixel grid the camera does not resolve shows real parallax and no texture; the colour challenge
  // (lib/liveness/colour-response.ts) is what refuses it. This test passes once nothing of B's replays passes.
  it.fails("APCER 0% on B's screen replays with the texture and parallax cues alone", () => {
    expect(of("B", "screen").filter(misjudged).map(outcome)).toEqual([]);
  });
});
