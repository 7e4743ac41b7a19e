import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluationBursts, judgeEvaluationBurst, summarise, type BurstResult } from "@/lib/liveness/pad-evaluation";
import { closeVisionPool } from "@/lib/vision/pool";

/**
 * The presentation-attack evaluation of `npm run eval:liveness`, in the test
 * suite: every generated attack of tests/fixtures/attacks (printed photos
 * tilted to fake the turns, screen replays of a real burst, photos held
 * still) is refused, and no live burst is, through the real face engine and
 * the production liveness verdict (no options, the defaults).
 */
let results: BurstResult[] = [];
const resultOf = (name: string) => results.find((r) => r.burst.name === name)!;

beforeAll(async () => {
  for (const burst of evaluationBursts()) results.push(await judgeEvaluationBurst(burst));
}, 300_000);
afterAll(() => closeVisionPool());

describe("presentation-attack evaluation", () => {
  it("covers every kind: live bursts, printed photos, screen replays, photos held still", () => {
    const kinds = summarise(results).map((s) => [s.kind, s.bursts]);
    expect(Object.fromEntries(kinds)).toEqual({ live: 12, print: 8, screen: 8, still: 6 });
  });

  it("APCER is 0% on every attack kind and BPCER 0% on the live bursts", () => {
    for (const s of summarise(results)) {
      const wrong = results.filter((r) => r.burst.kind === s.kind && (r.verdict.status === "passed") !== (s.kind === "live"));
      expect(wrong.map((r) => `${r.burst.name}: ${r.verdict.error?.code ?? "passed"}`), `${s.metric} of ${s.kind}`).toEqual([]);
    }
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

  it("a printed photo tilted as a flat sheet never reads as a head turn", () => {
    for (const r of results.filter((x) => x.burst.kind === "print")) {
      const yaw = r.verdict.data.yaw_deg.filter((y): y is number => y !== null);
      expect(Math.max(...yaw) - Math.min(...yaw), r.burst.name).toBeLessThan(12);
      expect(r.verdict.status).toBe("failed");
    }
  });
});
