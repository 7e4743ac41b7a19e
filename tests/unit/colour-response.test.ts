import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { LivenessVerdict } from "@/lib/liveness/liveness-verdict";
import { drawColours, linearRgb, SCREEN_COLOURS } from "@/lib/liveness/colour-challenge";
import { colourResponseVerdict } from "@/lib/liveness/colour-response";
import { withColourChallenge } from "@/lib/liveness/colour-verdict";
import type { FaceAnalysis } from "@/lib/vision/pool";
import { planBurst } from "@/components/verify/liveness/burst-schedule";
import { colourTimeline } from "@/components/verify/liveness/colour-schedule";
import { underScreenLight } from "../support/screen-light";
// @ts-expect-error: a plain ES module of the vision worker, no types
import { skinColour } from "../../workers/skin-colour.mjs";

/**
 * The colour challenge's rule (lib/liveness/colour-response.ts) on light we
 * synthesise: skin lit by a room and a coloured screen, as numbers (a
 * physical model with the camera's white balance and noise) and as pictures
 * (a face photo tinted in linear light, measured as the vision worker does).
 * The real fixture bursts replayed against random sequences are in
 * tests/checks/colour-response-fixtures.test.ts (they need the face
 * engine's boxes).
 */
type Vec3 = [number, number, number];

/** A seeded generator (mulberry32), so a failure can be replayed. */
function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (max: number) => Math.floor(next() * max), gauss: () => Math.sqrt(-2 * Math.log(next() + 1e-12)) * Math.cos(2 * Math.PI * next()) };
}

/**
 * Skin under the room's light plus `strength` x the screen colour, each
 * channel weighted by the camera's white balance, with `noise` (log units)
 * per frame and channel.
 */
function litSkin(colours: readonly string[], o: { strength: number; balance?: Vec3; noise?: number; rng: ReturnType<typeof seeded> }): Vec3[] {
  const reflectance: Vec3 = [0.45, 0.28, 0.2];
  const balance = o.balance ?? [1, 1, 1];
  return colours.map((colour) => {
    const e = linearRgb(colour);
    return [0, 1, 2].map((c) => reflectance[c]! * (1 + o.strength * balance[c]! * e[c]!) * Math.exp((o.noise ?? 0.005) * o.rng.gauss())) as Vec3;
  });
}

describe("drawColours", () => {
  it("draws from the palette, every 3 consecutive colours different, and covers many sequences", () => {
    const rng = seeded(1);
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const colours = drawColours(8, rng.int);
      expect(colours).toHaveLength(8);
      colours.forEach((c, k) => {
        expect(SCREEN_COLOURS).toContain(c);
        expect(colours.slice(Math.max(0, k - 2), k)).not.toContain(c);
      });
      seen.add(colours.join());
    }
    expect(seen.size).toBeGreaterThan(1900);
  });
});

describe("colourResponseVerdict on a simulated face", () => {
  it("a face lit by the screen follows its colours: dim and bright rooms, white balance weighting the channels up to 2x, 3 to 8 frames", () => {
    const rng = seeded(2);
    for (const strength of [0.3, 0.6, 3]) {
      for (const balance of [[1, 1, 1], [1, 1.3, 2.2], [0.7, 1, 1.5]] as Vec3[]) {
        for (const n of [3, 5, 8]) {
          for (let i = 0; i < 20; i++) {
            const colours = drawColours(8, rng.int);
            const v = colourResponseVerdict(colours, litSkin(colours.slice(0, n), { strength, balance, noise: 0.01, rng }));
            expect(v.verdict, JSON.stringify({ strength, balance, n, v })).toBe("follows");
          }
        }
      }
    }
  });

  it("light that followed another sequence (a recording of an earlier challenge) never follows this one", () => {
    const rng = seeded(3);
    const verdicts: Record<string, number> = {};
    for (let i = 0; i < 5000; i++) {
      const recorded = drawColours(8, rng.int);
      const asked = drawColours(8, rng.int);
      if (recorded.slice(0, 5).join() === asked.slice(0, 5).join()) continue;
      const v = colourResponseVerdict(asked, litSkin(recorded.slice(0, 5), { strength: 0.6, noise: 0.01, rng }));
      verdicts[v.verdict] = (verdicts[v.verdict] ?? 0) + 1;
    }
    expect(verdicts.follows ?? 0).toBe(0);
    // Most are positive evidence against the recording; the rest go to review.
    expect(verdicts.contradicts!).toBeGreaterThan(2500);
  });

  it("too little light on the face (a bright room, a still picture) is inconclusive, never a decline", () => {
    const rng = seeded(4);
    for (let i = 0; i < 200; i++) {
      const colours = drawColours(8, rng.int);
      const weak = colourResponseVerdict(colours, litSkin(colours.slice(0, 5), { strength: 0.01, noise: 0.002, rng }));
      expect(weak).toMatchObject({ verdict: "inconclusive", reason: "too_little_response" });
      const still = colourResponseVerdict(colours, litSkin(colours.slice(0, 5), { strength: 0, noise: 0.004, rng }));
      expect(still).toMatchObject({ verdict: "inconclusive", reason: "too_little_response" });
    }
  });

  it("light going against each colour contradicts; fewer than 3 measured frames cannot be judged", () => {
    const rng = seeded(5);
    const colours = ["#ff0000", "#00ff00", "#0000ff", "#ffff00", "#ff00ff"];
    const against = ["#00ffff", "#ff00ff", "#ffff00", "#0000ff", "#00ff00"];
    const v = colourResponseVerdict(colours, litSkin(against, { strength: 0.6, rng }));
    expect(v.verdict).toBe("contradicts");
    expect(v.correlation!).toBeLessThan(0);
    const skin = litSkin(colours, { strength: 0.6, rng });
    expect(colourResponseVerdict(colours, [skin[0]!, null, skin[2]!, null, null])).toMatchObject({ verdict: "inconclusive", reason: "too_few_frames" });
  });
});

describe("colourResponseVerdict on a face photo lit in linear light, measured like the vision worker", () => {
  const photo = fs.readFileSync(path.join(process.cwd(), "tests", "fixtures", "faces", "a-still", "1.jpg"));
  /** The inner face's colour of each frame; these crops are the face (320 px), so its box is the whole picture's middle. */
  async function measure(frames: Buffer[]): Promise<Vec3[]> {
    return Promise.all(
      frames.map(async (f) => {
        const { data, info } = await sharp(f).removeAlpha().raw().toBuffer({ resolveWithObject: true });
        return skinColour(data, info.width, info.height, [info.width * 0.15, info.height * 0.1, info.width * 0.7, info.height * 0.8]) as Vec3;
      }),
    );
  }

  it("the same photo under the screen's colours follows them, and is judged against other colours as not following", async () => {
    const rng = seeded(6);
    for (let i = 0; i < 4; i++) {
      const colours = drawColours(8, rng.int);
      const skin = await measure(await underScreenLight(Array(5).fill(photo), colours, { strength: 0.3 }));
      const v = colourResponseVerdict(colours, skin);
      expect(v.verdict, JSON.stringify(v)).toBe("follows");
      expect(v.frames.every((f) => f.agrees)).toBe(true);
      const other = drawColours(8, rng.int);
      if (other.slice(0, 5).join() !== colours.slice(0, 5).join()) expect(colourResponseVerdict(other, skin).verdict).not.toBe("follows");
    }
  });

  it("the photo without the screen's light (JPEG noise only) is inconclusive", async () => {
    const skin = await measure(await Promise.all([90, 85, 80, 92, 88].map((q) => sharp(photo).jpeg({ quality: q }).toBuffer())));
    expect(colourResponseVerdict(drawColours(8), skin)).toMatchObject({ verdict: "inconclusive", reason: "too_little_response" });
  });
});

describe("withColourChallenge: the liveness outcome with the colour response", () => {
  const rng = seeded(7);
  const colours = drawColours(8, rng.int);
  const analyses = (skin: Vec3[]): FaceAnalysis[] =>
    skin.map((s) => ({ faces: [{ box: [0, 0, 100, 100], skin_rgb: s } as FaceAnalysis["faces"][number]], width: 100, height: 100, ms: 1, model: "m" }));
  const verdict = (status: "passed" | "failed", code?: string): LivenessVerdict =>
    ({ status, live_score: status === "passed" ? 0.8 : 0.3, data: { live_score: status === "passed" ? 0.8 : 0.3 } as LivenessVerdict["data"], error: code ? { code, message: code } : null }) as LivenessVerdict;
  const follows = analyses(litSkin(colours.slice(0, 5), { strength: 0.6, rng }));
  const against = analyses(litSkin(colours.slice(0, 5).map((c) => `#${(0xffffff ^ parseInt(c.slice(1), 16)).toString(16).padStart(6, "0")}`), { strength: 0.6, rng }));
  const weak = analyses(litSkin(colours.slice(0, 5), { strength: 0.005, rng, noise: 0.001 }));

  it("passes only when the head-turn verdict passed and the light follows", () => {
    expect(withColourChallenge(verdict("passed"), colours, follows)).toMatchObject({ status: "passed", live_score: 0.8, error: null });
  });
  it("a contradicting light fails spoof_suspected with score 0, also over a missed action; other failures stay", () => {
    expect(withColourChallenge(verdict("passed"), colours, against)).toMatchObject({ status: "failed", live_score: 0, error: { code: "spoof_suspected" } });
    expect(withColourChallenge(verdict("failed", "action_not_detected"), colours, against)).toMatchObject({ status: "failed", error: { code: "spoof_suspected" } });
    expect(withColourChallenge(verdict("failed", "no_face"), colours, against)).toMatchObject({ status: "failed", error: { code: "no_face" } });
    expect(withColourChallenge(verdict("failed", "action_not_detected"), colours, follows)).toMatchObject({ status: "failed", error: { code: "action_not_detected" } });
  });
  it("too little light is a review below 0.5; skipped colours (photosensitivity) too, never a pass", () => {
    expect(withColourChallenge(verdict("passed"), colours, weak)).toMatchObject({ status: "review", error: { code: "colour_response_unclear" }, data: { colour_challenge: { verdict: "inconclusive" } } });
    expect(withColourChallenge(verdict("passed"), colours, weak).live_score).toBeLessThan(0.5);
    expect(withColourChallenge(verdict("passed"), [], follows)).toMatchObject({ status: "review", error: { code: "colour_challenge_skipped" }, data: { colour_challenge: { skipped: true } } });
    expect(withColourChallenge(verdict("failed", "action_not_detected"), [], follows)).toMatchObject({ status: "failed" });
  });
});

describe("colourTimeline: the page's light follows the frame schedule", () => {
  it("colour k is on at least the settle time before frame k and until it is taken; off after the last frame; under 3 changes a second", () => {
    for (const [actions, recommended] of [[2, 5], [2, 8], [3, 8], [1, 3]] as const) {
      const plan = planBurst(actions, { min: 3, max: 8, recommended });
      const colours = drawColours(8);
      const timeline = colourTimeline(plan, colours, 350);
      plan.frames.forEach((frame, k) => {
        const current = timeline.filter((ch) => ch.atMs <= frame.atMs).at(-1)!;
        expect(current.colour).toBe(colours[k]);
        expect(frame.atMs - current.atMs).toBeGreaterThanOrEqual(350);
      });
      expect(timeline.at(-1)).toMatchObject({ colour: null });
      for (let i = 1; i < timeline.length; i++) expect(timeline[i]!.atMs - timeline[i - 1]!.atMs).toBeGreaterThan(333);
    }
    expect(colourTimeline(planBurst(2, { min: 3, max: 8, recommended: 5 }), [], 350)).toEqual([]);
  });
});
