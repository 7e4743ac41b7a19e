import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { analyseFaces, closeVisionPool, cosineSimilarity, warmVision } from "@/lib/vision/pool";

/**
 * The face engine in its worker threads, on real photos: crops of
 * @vladmandic/human's assets/screenshot-facematch.jpg (MIT, shipped in the
 * npm package): its first row is one man, the second row's 7th and 8th
 * cells are two different women.
 */
const SOURCE = "node_modules/@vladmandic/human/assets/screenshot-facematch.jpg";
const cell = (col: number, row: number) =>
  sharp(SOURCE)
    .extract({ left: Math.round(col * 106.67) + 2, top: 280 + row * 110 + 2, width: 100, height: 100 })
    .resize(256)
    .jpeg()
    .toBuffer();

afterAll(() => closeVisionPool());

describe("vision engine (worker threads, models from node_modules)", () => {
  it("loads its models offline and names their version", async () => {
    const native = "onnxruntime";
    expect(await warmVision()).toEqual({
      model: expect.stringMatching(/^human@\d+\.\d+\.\d+$/),
      runtime: native,
      models: { blazeface: native, facemesh: native, iris: native, faceres: native, antispoof: native, liveness: native },
      loads: 1,
    });
  });

  it("finds one face with a 1024-d embedding, head pose and eye openness", async () => {
    const result = await analyseFaces(await cell(1, 0));
    expect(result.faces).toHaveLength(1);
    const [face] = result.faces;
    expect(face!.embedding).toHaveLength(1024);
    expect(face!.score).toBeGreaterThan(0.5);
    expect(Math.abs(face!.rotation!.yaw)).toBeLessThan(0.6);
    expect(face!.ear.left).toBeGreaterThan(0.2); // eyes open
  });

  it("embeddings of one person are closer than those of different people", async () => {
    const [a1, a2, a3, b, c] = await Promise.all([cell(0, 0), cell(1, 0), cell(2, 0), cell(6, 1), cell(7, 1)].map(async (p) => (await analyseFaces(await p)).faces[0]!.embedding!));
    const same = [cosineSimilarity(a1!, a2!), cosineSimilarity(a1!, a3!), cosineSimilarity(a2!, a3!)];
    const different = [cosineSimilarity(a1!, b!), cosineSimilarity(a1!, c!), cosineSimilarity(b!, c!)];
    expect(Math.min(...same)).toBeGreaterThan(0.6);
    expect(Math.max(...different)).toBeLessThan(0.55);
  });

  it("serves requests first come, first served: a burst queued early is not overtaken by later ones", async () => {
    const frame = await cell(1, 0);
    const finished: number[] = [];
    await Promise.all(Array.from({ length: 10 }, (_, i) => analyseFaces(frame).then(() => finished.push(i))));
    expect(finished).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("reports bytes that are not an image as bad input (422 invalid_image), without killing the pool or reloading its models", async () => {
    await expect(analyseFaces(new TextEncoder().encode("not an image"))).rejects.toMatchObject({ code: "invalid_image", status: 422 });
    expect((await analyseFaces(await cell(1, 0))).faces).toHaveLength(1);
    expect((await warmVision()).loads).toBe(1);
  });
});
