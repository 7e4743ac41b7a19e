import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain .mjs module of the vision worker, no type declarations
import { fuseModelGraph } from "../../workers/fuse-model-graph.mjs";
import { loadFaceModel, modelsDir, wasmTf } from "../support/face-models";

/**
 * The vision worker rewrites human's face-description graph (faceres) before
 * it loads: ReLU6 chains and Conv2D+bias become single kernels. This runs the
 * original and the rewritten graph, with the same weights, on the same face
 * and requires the same 1024-d embedding: the rewrite may only make it faster.
 */
const faceres = fs.readFileSync(path.join(modelsDir, "faceres.json"), "utf8");

async function embedding(modelJson: string, input: Float32Array): Promise<Float32Array> {
  const tf = await wasmTf();
  const graph = await loadFaceModel("faceres", modelJson);
  // The 1024-d descriptor human reads (global_pooling/Mean), not only the age and gender heads.
  const out = graph.execute(tf.tensor(input, [1, 224, 224, 3]), "global_pooling/Mean");
  const descriptor = (Array.isArray(out) ? out[0]! : out).dataSync();
  expect(descriptor).toHaveLength(1024);
  return descriptor;
}

describe("fuseModelGraph", () => {
  it("turns faceres's Relu/Minimum/Maximum chains into Relu6 and folds Conv2D + bias + Relu6 into one kernel", () => {
    const { text, relu6, fusedConv } = fuseModelGraph(faceres);
    expect(relu6).toBe(27);
    expect(fusedConv).toBe(14);
    const ops = JSON.parse(text).modelTopology.node.map((n: { op: string }) => n.op);
    expect(ops).not.toContain("Minimum");
    expect(ops).not.toContain("Maximum");
    expect(ops).not.toContain("Conv2D");
  });

  it("leaves a graph without the pattern byte for byte as it was", () => {
    const blazeface = fs.readFileSync(path.join(modelsDir, "blazeface.json"), "utf8");
    expect(fuseModelGraph(blazeface)).toEqual({ text: blazeface, relu6: 0, fusedConv: 0 });
  });

  it("gives the same embedding as the original graph for a real face", async () => {
    const { data } = await sharp(path.join(process.cwd(), "tests", "fixtures", "faces", "a-left-right", "1.jpg")).resize(224, 224).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const input = Float32Array.from(data, (v) => v / 255);
    const [original, rewritten] = [await embedding(faceres, input), await embedding(fuseModelGraph(faceres).text, input)];
    let dot = 0;
    let na = 0;
    let nb = 0;
    let maxDiff = 0;
    for (let i = 0; i < original.length; i++) {
      dot += original[i]! * rewritten[i]!;
      na += original[i]! ** 2;
      nb += rewritten[i]! ** 2;
      maxDiff = Math.max(maxDiff, Math.abs(original[i]! - rewritten[i]!));
    }
    expect(dot / Math.sqrt(na * nb)).toBeGreaterThan(0.99999);
    expect(maxDiff).toBeLessThan(1e-4);
  }, 60_000);
});
