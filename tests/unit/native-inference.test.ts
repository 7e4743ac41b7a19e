import fs from "node:fs";
import path from "node:path";
import { Piscina } from "piscina";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error plain .mjs module of the vision worker, no type declarations
import { fuseModelGraph } from "../../workers/fuse-model-graph.mjs";
// @ts-expect-error plain .mjs module of the vision worker, no type declarations
import { graphModelToOnnx, nativeSession } from "../../workers/native-inference.mjs";
// @ts-expect-error plain .mjs module of the vision worker, no type declarations
import { tfjsGraphToOnnx, UnsupportedGraph } from "../../workers/tfjs-graph-to-onnx.mjs";
import type { FaceAnalysis } from "@/lib/vision/pool";
import { loadFaceModel, modelsDir, wasmTf, type Tensor } from "../support/face-models";

/**
 * The vision worker runs human's face models on the native ONNX Runtime
 * (workers/native-inference.mjs) after converting their TensorFlow.js graphs
 * (workers/tfjs-graph-to-onnx.mjs). Every threshold was calibrated on the
 * WASM backend's outputs, so the conversion may only change speed: each
 * model's every output must match TensorFlow.js's on a real face, and the
 * worker's whole analysis must match the WASM worker's.
 */
const FACE = path.join(process.cwd(), "tests", "fixtures", "faces", "a-left-right");
type NativeOutput = { data: Float32Array; dims: number[] };

/** The fixture face, resized to the model's input and scaled to [0, 1]. */
async function faceInput(shape: number[]): Promise<{ data: Float32Array; shape: number[] }> {
  const [, h, w] = shape as [number, number, number, number];
  const { data } = await sharp(path.join(FACE, "1.jpg")).resize(w, h).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: Float32Array.from(data, (v) => v / 255), shape: [1, h, w, 3] };
}

describe("the face models on the native ONNX Runtime", () => {
  // As production loads them: faceres through the graph rewrite first.
  for (const name of ["blazeface", "facemesh", "iris", "faceres", "antispoof", "liveness"]) {
    it(`${name}: every output matches TensorFlow.js's on a real face`, async () => {
      const tf = await wasmTf();
      const shipped = fs.readFileSync(path.join(modelsDir, `${name}.json`), "utf8");
      const model = await loadFaceModel(name, fuseModelGraph(shipped).text);
      const input = await faceInput(model.inputs[0]!.shape);
      const reference = model.execute(tf.tensor(input.data, input.shape));
      const expected = (Array.isArray(reference) ? reference : [reference]) as Tensor[];
      const actual: NativeOutput[] = nativeSession(graphModelToOnnx(model))(input.data, input.shape);
      expect(actual).toHaveLength(expected.length);
      expected.forEach((want, i) => {
        const got = actual[i]!;
        expect(got.dims.map(Number)).toEqual(want.shape);
        const a = want.dataSync();
        let scale = 1;
        let worst = 0;
        for (let j = 0; j < a.length; j++) {
          scale = Math.max(scale, Math.abs(a[j]!));
          worst = Math.max(worst, Math.abs(a[j]! - got.data[j]!));
        }
        expect(worst / scale).toBeLessThan(1e-5);
      });
    }, 60_000);
  }

  it("refuses a graph with an operation it does not convert, naming it", () => {
    const nodes = [
      { name: "input", op: "Placeholder", attr: { shape: { shape: { dim: [{ size: "1" }, { size: "8" }, { size: "8" }, { size: "3" }] } } } },
      { name: "odd", op: "Conv3D", input: ["input"] },
    ];
    expect(() => tfjsGraphToOnnx({ nodes, constant: () => undefined, outputs: ["odd"] })).toThrow(UnsupportedGraph);
    expect(() => tfjsGraphToOnnx({ nodes, constant: () => undefined, outputs: ["odd"] })).toThrow(/odd: operation Conv3D is not supported/);
  });
});

describe("the vision worker on either runtime", () => {
  const pool = (runtime: "native" | "wasm") =>
    new Piscina({ filename: path.join(process.cwd(), "workers", "vision-worker.mjs"), minThreads: 1, maxThreads: 1, env: { ...process.env, VISION_RUNTIME: runtime } });
  const native = pool("native");
  const wasm = pool("wasm");
  afterAll(() => Promise.all([native.destroy(), wasm.destroy()]));

  it("reports the runtime each one uses", async () => {
    expect((await native.run({ op: "ping" })).value).toMatchObject({ runtime: "onnxruntime" });
    expect((await wasm.run({ op: "ping" })).value).toMatchObject({ runtime: "wasm" });
  }, 120_000);

  it("finds the same faces, embeddings, head pose and eye openness on a turning head", async () => {
    for (const frame of ["1.jpg", "3.jpg", "5.jpg"]) {
      const image = fs.readFileSync(path.join(FACE, frame));
      const [n, w] = (await Promise.all([native.run({ op: "faces", image }), wasm.run({ op: "faces", image })])).map((r) => r.value as FaceAnalysis);
      expect(n!.faces).toHaveLength(w!.faces.length);
      expect(w!.faces.length).toBeGreaterThan(0);
      n!.faces.forEach((face, i) => {
        const other = w!.faces[i]!;
        face.box.forEach((v, k) => expect(Math.abs(v - other.box[k]!)).toBeLessThan(0.5));
        let dot = 0;
        face.embedding!.forEach((v, k) => (dot += v * other.embedding![k]!));
        expect(dot).toBeGreaterThan(0.9999);
        for (const angle of ["yaw", "pitch", "roll"] as const) expect(Math.abs(face.rotation![angle] - other.rotation![angle])).toBeLessThan(0.005);
        expect(Math.abs(face.ear.left! - other.ear.left!)).toBeLessThan(0.005);
        expect(Math.abs(face.antispoof! - other.antispoof!)).toBeLessThan(1e-3);
      });
    }
  }, 120_000);
});
