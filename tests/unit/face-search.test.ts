import { beforeAll, describe, expect, it } from "vitest";
import { CodeGalleries } from "@/lib/faces/code-galleries";
import { BLOCK_CODES, CodeArena } from "@/lib/faces/hamming-scan";
import { estimateSd, rescoreFloor, SimilarityEstimator } from "@/lib/faces/code-estimate";
import { SEARCH_CODE_BYTES, candidateRadius, hammingDistance, searchCode } from "@/lib/faces/search-code";
import { LookAlikeFaces, measuredStrangers } from "../support/look-alike-faces";
import { dot, randomTemplate, seededRandom, templateAtSimilarity } from "../support/synthetic-faces";

describe("search codes (random-rotation sign bits)", () => {
  it("are 128 bytes, deterministic, and blind to the template's length", () => {
    const t = randomTemplate(seededRandom(1));
    const code = searchCode(t);
    expect(code).toHaveLength(SEARCH_CODE_BYTES);
    expect(searchCode(t).equals(code)).toBe(true);
    expect(searchCode(t.map((x) => x * 7.5)).equals(code)).toBe(true);
    expect(() => searchCode([1, 2, 3])).toThrow(/1024 values/);
  });

  it("differ in 1024·θ/π bits on average, and a face at the threshold is inside the radius", () => {
    const random = seededRandom(7);
    for (const similarity of [0.95, 0.68, 0.4, 0]) {
      const distances = Array.from({ length: 300 }, () => {
        const a = randomTemplate(random);
        return hammingDistance(searchCode(a), searchCode(templateAtSimilarity(a, similarity, random)));
      });
      const mean = distances.reduce((s, d) => s + d, 0) / distances.length;
      const expected = (1024 * Math.acos(similarity)) / Math.PI;
      expect(Math.abs(mean - expected)).toBeLessThan(3);
      if (similarity >= 0.68) expect(Math.max(...distances)).toBeLessThanOrEqual(candidateRadius(0.68));
      else if (similarity <= 0.4) expect(Math.min(...distances)).toBeGreaterThan(candidateRadius(0.68));
    }
  });

  it("radius grows as the threshold falls, within 0..1024", () => {
    expect(candidateRadius(1)).toBe(0);
    expect(candidateRadius(0.68)).toBe(339);
    expect(candidateRadius(0.5)).toBeGreaterThan(candidateRadius(0.68));
    expect(candidateRadius(-1)).toBe(1024);
  });
});

describe("the WebAssembly Hamming scan and the in-memory galleries", () => {
  let arena: CodeArena;
  beforeAll(async () => {
    arena = await CodeArena.create();
  });

  const randomCode = (random: () => number) => Uint8Array.from({ length: SEARCH_CODE_BYTES }, () => Math.floor(random() * 256));

  it("computes the same distances as a plain popcount, across block boundaries", () => {
    const random = seededRandom(3);
    const galleries = new CodeGalleries(arena);
    const codes = Array.from({ length: BLOCK_CODES + 37 }, () => randomCode(random));
    codes.forEach((c, i) => galleries.put("p", i + 1, c));
    const probe = randomCode(random);
    const all = galleries.nearest("p", probe, 1024, 0, codes.length);
    expect(all).toHaveLength(codes.length);
    const expected = codes.map((c, i) => ({ seq: i + 1, distance: hammingDistance(probe, c) })).sort((a, b) => a.distance - b.distance || a.seq - b.seq);
    expect(all).toEqual(expected);
    galleries.clear();
  });

  it("keeps each project's set exact through adds, replacements and removals (against a plain map)", () => {
    const random = seededRandom(11);
    const galleries = new CodeGalleries(arena);
    const model = new Map<string, Map<number, Uint8Array>>();
    for (let step = 0; step < 20_000; step++) {
      const project = `p${Math.floor(random() * 3)}`;
      const seq = 1 + Math.floor(random() * 6000);
      const codes = model.get(project) ?? new Map<number, Uint8Array>();
      model.set(project, codes);
      if (random() < 0.65) {
        const code = randomCode(random);
        galleries.put(project, seq, code);
        codes.set(seq, code);
      } else {
        expect(galleries.remove(project, seq)).toBe(codes.delete(seq));
      }
    }
    const probe = randomCode(random);
    for (const [project, codes] of model) {
      const found = galleries.nearest(project, probe, 1024, 0, 100_000);
      const expected = [...codes].map(([seq, c]) => ({ seq, distance: hammingDistance(probe, c) })).sort((a, b) => a.distance - b.distance || a.seq - b.seq);
      expect(found).toEqual(expected);
    }
    expect(galleries.size).toBe([...model.values()].reduce((s, m) => s + m.size, 0));
    galleries.clear();
  });

  it("returns everything within the radius (nearest first, at most the limit) and at least the nearest few", () => {
    const random = seededRandom(5);
    const galleries = new CodeGalleries(arena);
    const base = randomTemplate(random);
    galleries.put("p", 1, searchCode(templateAtSimilarity(base, 0.9, random)));
    galleries.put("p", 2, searchCode(templateAtSimilarity(base, 0.7, random)));
    galleries.put("p", 3, searchCode(templateAtSimilarity(base, 0.3, random)));
    for (let seq = 10; seq < 2000; seq++) galleries.put("p", seq, searchCode(randomTemplate(random)));
    galleries.put("other", 99, searchCode(base));
    const probe = searchCode(base);
    const radius = candidateRadius(0.68);
    expect(galleries.nearest("p", probe, radius, 0, 100).map((c) => c.seq)).toEqual([1, 2]);
    expect(galleries.nearest("p", probe, radius, 3, 100).map((c) => c.seq)).toEqual([1, 2, 3]);
    expect(galleries.nearest("p", probe, radius, 0, 1).map((c) => c.seq)).toEqual([1]);
    expect(galleries.nearest("nobody", probe, radius, 3, 100)).toEqual([]);
    galleries.removeEverywhere(1);
    expect(galleries.nearest("p", probe, radius, 0, 100).map((c) => c.seq)).toEqual([2]);
    expect(galleries.nearest("other", probe, radius, 0, 100)).toEqual([{ seq: 99, distance: 0 }]);
    galleries.clear();
    expect(galleries.size).toBe(0);
  });
});

const stats = (xs: number[]) => {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return { mean, sd: Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1)) };
};

describe("the look-alike gallery model (tests/support/look-alike-faces.ts)", () => {
  it("gives strangers the similarity distribution eval:faces measured, and related faces their exact similarity", async () => {
    const measured = await measuredStrangers();
    const model = new LookAlikeFaces(measured.mean, measured.sd, seededRandom(21));
    const faces = Array.from({ length: 200 }, () => model.face());
    const pairs: number[] = [];
    for (let i = 0; i < faces.length; i++) for (let j = i + 1; j < faces.length; j++) pairs.push(dot(faces[i]!, faces[j]!));
    const { mean, sd } = stats(pairs);
    expect(Math.abs(mean - measured.mean)).toBeLessThan(0.01);
    expect(Math.abs(sd / measured.sd - 1)).toBeLessThan(0.15);
    const again = model.related(faces[0]!, 0.685);
    expect(dot(again, faces[0]!)).toBeCloseTo(0.685, 6);
    expect(dot(again, again)).toBeCloseTo(1, 6);
    // The same person again looks at the crowd as the person does.
    expect(Math.abs(stats(faces.slice(1).map((f) => dot(again, f))).mean - measured.mean)).toBeLessThan(0.03);
  });
});

describe("the similarity estimated from a face's code (asymmetric: the probe unquantised)", () => {
  it("is unbiased, with the spread estimateSd states (within 15% either way), on spread-out and on look-alike faces", async () => {
    const random = seededRandom(9);
    const measured = await measuredStrangers();
    const model = new LookAlikeFaces(measured.mean, measured.sd, random);
    for (const [name, pair] of [
      ["uniform", (s: number) => { const a = randomTemplate(random); return [a, templateAtSimilarity(a, s, random)] as const; }],
      ["look-alike", (s: number) => { const a = model.face(); return [a, model.related(a, s)] as const; }],
    ] as const) {
      for (const similarity of [0.95, 0.68, 0.45]) {
        const errors = Array.from({ length: 400 }, () => {
          const [probe, face] = pair(similarity);
          const code = searchCode(face);
          return new SimilarityEstimator(probe).estimate(code, 0) - dot(probe, face);
        });
        const { mean, sd } = stats(errors);
        expect(Math.abs(mean), `${name} at ${similarity}: bias`).toBeLessThan(0.006);
        expect(sd / estimateSd(similarity), `${name} at ${similarity}: spread`).toBeLessThan(1.15);
        expect(sd / estimateSd(similarity), `${name} at ${similarity}: spread`).toBeGreaterThan(0.85);
      }
    }
  });

  it("is computed by the WebAssembly kernel exactly as in JavaScript, across block boundaries", async () => {
    const random = seededRandom(29);
    const measured = await measuredStrangers();
    const model = new LookAlikeFaces(measured.mean, measured.sd, random);
    const galleries = new CodeGalleries(await CodeArena.create());
    const codes = new Map<number, Buffer>();
    for (let seq = 1; seq <= BLOCK_CODES + 500; seq++) {
      const code = searchCode(model.face());
      codes.set(seq, code);
      galleries.put("p", seq, code);
    }
    const probe = model.face();
    const estimator = new SimilarityEstimator(probe);
    // Every face (radius 1024, no floor): each estimate against the JavaScript one.
    const all = galleries.candidates("p", searchCode(probe), 1024, estimator, -Infinity, 0);
    expect(all).toHaveLength(codes.size);
    for (const c of all) expect(c.estimate).toBeCloseTo(estimator.estimate(codes.get(c.seq)!, 0), 9);
    expect(all.map((c) => c.estimate)).toEqual([...all.map((c) => c.estimate)].sort((a, b) => b - a));
    // Only the faces within the radius, and at or above the floor.
    const radius = candidateRadius(0.68);
    const some = galleries.candidates("p", searchCode(probe), radius, estimator, 0.5, 0);
    expect(some.length).toBeGreaterThan(0);
    expect(some.length).toBeLessThan(all.length);
    expect(some.every((c) => c.distance <= radius && c.estimate >= 0.5)).toBe(true);
    expect(some.length).toBe(all.filter((c) => c.distance <= radius && c.estimate >= 0.5).length);
    galleries.clear();
  });

  it("lets through to the exact re-score all but about 2 in 10,000 faces exactly at the threshold", async () => {
    const random = seededRandom(23);
    const measured = await measuredStrangers();
    const model = new LookAlikeFaces(measured.mean, measured.sd, random);
    let passedOver = 0;
    for (let k = 0; k < 3000; k++) {
      const probe = model.face();
      const face = model.related(probe, 0.68);
      if (new SimilarityEstimator(probe).estimate(searchCode(face), 0) < rescoreFloor(0.68)) passedOver++;
    }
    // Expected 0.7 of 3,000 (one-sided normal tail at 3.5 sd); 4 or more has probability about 0.5%.
    expect(passedOver).toBeLessThanOrEqual(3);
  });

  it("finds a true match just above the threshold among a crowd of look-alikes that fills the 100 nearest codes", async () => {
    const random = seededRandom(17);
    const measured = await measuredStrangers();
    const model = new LookAlikeFaces(measured.mean, measured.sd, random);
    const arena = await CodeArena.create();
    const galleries = new CodeGalleries(arena);
    const probe = model.face();
    // Five faces of the probe's person just above the threshold, 1,500 look-alikes just under it, 3,000 strangers.
    const matches = [1, 2, 3, 4, 5];
    for (const seq of matches) galleries.put("p", seq, searchCode(model.related(probe, 0.68 + seq * 0.002)));
    let seq = 100;
    for (let k = 0; k < 1500; k++) galleries.put("p", ++seq, searchCode(model.related(probe, 0.672 + (k % 8) * 0.001)));
    for (let k = 0; k < 3000; k++) galleries.put("p", ++seq, searchCode(model.face()));
    const code = searchCode(probe);
    // The old rule: at most the 100 nearest codes within the radius are re-scored; the crowd takes the places.
    const old = galleries.nearest("p", code, candidateRadius(0.68), 3, 100);
    expect(old).toHaveLength(100);
    expect(matches.filter((m) => old.some((c) => c.seq === m)).length).toBeLessThan(matches.length);
    // Every face the estimate's bound cannot exclude, however many.
    const found = galleries.candidates("p", code, candidateRadius(0.68), new SimilarityEstimator(probe), rescoreFloor(0.68), 3);
    expect(found.map((c) => c.seq)).toEqual(expect.arrayContaining(matches));
    expect(found.length).toBeGreaterThan(1000);
    expect(found.length).toBeLessThan(1600);
    galleries.clear();
  });
});
