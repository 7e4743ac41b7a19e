import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { InferenceSession, Tensor as OrtTensor } from "onnxruntime-node";
import { Piscina } from "piscina";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error plain .mjs module of the vision worker, no type declarations
import { graphModelToOnnx } from "../../workers/graph-model-to-onnx.mjs";
// @ts-expect-error plain .mjs module of the vision worker, no type declarations
import { FACE_MODELS as WORKER_FACE_MODELS, loadHumanFaceModels } from "../../workers/human-face-models.mjs";
// @ts-expect-error plain .mjs module of the vision worker, no type declarations
import { overallRuntime, runModelsNatively } from "../../workers/native-inference.mjs";
// @ts-expect-error plain .mjs module of the vision worker, no type declarations
import { openSynchronousSession, SESSION_OPTIONS } from "../../workers/onnx-sync-session.mjs";
// @ts-expect-error plain .mjs module of the vision worker, no type declarations
import { tfjsGraphToOnnx, UnsupportedGraph } from "../../workers/tfjs-graph-to-onnx.mjs";
import type { FaceAnalysis, VisionRuntime } from "@/lib/vision/pool";
import { loadFaceModelAsTheWorkerDoes, wasmTf, type Tensor } from "../support/face-models";

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
/** The models the vision worker swaps (workers/human-face-models.mjs). */
const FACE_MODELS: string[] = WORKER_FACE_MODELS;
const bytesOf = (a: Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** The fixture face, resized to the model's input and scaled to [0, 1]. */
async function faceInput(shape: number[]): Promise<{ data: Float32Array; shape: number[] }> {
  const [, h, w] = shape as [number, number, number, number];
  const { data } = await sharp(path.join(FACE, "1.jpg")).resize(w, h).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: Float32Array.from(data, (v) => v / 255), shape: [1, h, w, 3] };
}

describe("the face models on the native ONNX Runtime", () => {
  // As production loads them: through the worker's model loader, faceres's graph rewritten first.
  for (const name of FACE_MODELS) {
    it(`${name}: every output matches TensorFlow.js's on a real face`, async () => {
      const tf = await wasmTf();
      const { model, nodes } = await loadFaceModelAsTheWorkerDoes(name);
      const input = await faceInput(model.inputs[0]!.shape);
      const reference = model.execute(tf.tensor(input.data, input.shape));
      const expected = (Array.isArray(reference) ? reference : [reference]) as Tensor[];
      const actual: NativeOutput[] = openSynchronousSession(graphModelToOnnx(model, nodes))(input.data, input.shape);
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

  it("runs each model synchronously, through its inference thread, to exactly the outputs of a direct `await session.run`", async () => {
    for (const name of FACE_MODELS) {
      const { model, nodes } = await loadFaceModelAsTheWorkerDoes(name);
      const onnx: Uint8Array = graphModelToOnnx(model, nodes);
      const input = await faceInput(model.inputs[0]!.shape);
      const synchronous: NativeOutput[] = openSynchronousSession(onnx)(input.data, input.shape);
      const session = await InferenceSession.create(onnx, SESSION_OPTIONS);
      try {
        const results = await session.run({ [session.inputNames[0]!]: new OrtTensor("float32", input.data, input.shape) });
        const direct = session.outputNames.map((n) => results[n]!);
        expect(synchronous.map((o) => o.dims.map(Number))).toEqual(direct.map((o) => o.dims.map(Number)));
        synchronous.forEach((o, i) => expect(bytesOf(o.data).equals(bytesOf(direct[i]!.data as Float32Array))).toBe(true));
      } finally {
        await session.release();
      }
    }
  }, 120_000);

  it("throws an error of ONNX Runtime inside the inference thread here, with its own message, and keeps serving", async () => {
    const { model, nodes } = await loadFaceModelAsTheWorkerDoes("iris");
    const onnx: Uint8Array = graphModelToOnnx(model, nodes);
    const run = openSynchronousSession(onnx);
    const wrong = { data: new Float32Array(2 * 2 * 3), shape: [1, 2, 2, 3] };
    const session = await InferenceSession.create(onnx, SESSION_OPTIONS);
    let message = "";
    try {
      await session.run({ [session.inputNames[0]!]: new OrtTensor("float32", wrong.data, wrong.shape) }).catch((err: Error) => (message = err.message));
    } finally {
      await session.release();
    }
    expect(message).not.toBe("");
    expect(() => run(wrong.data, wrong.shape)).toThrow(new Error(message));
    const input = await faceInput(model.inputs[0]!.shape);
    expect(run(input.data, input.shape).length).toBeGreaterThan(0);
  }, 60_000);

  it("runs each model it can natively and reports the one it cannot as WASM: the whole is 'mixed', not 'wasm'", async () => {
    const { human, read } = await loadHumanFaceModels({ rewriteGraph: true });
    read.delete("faceres"); // as if faceres had not come from a model file
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "vision-models-"));
    const warnings: string[] = [];
    try {
      const { runtimes, files } = runModelsNatively(human, FACE_MODELS, { read, cacheDir, warn: (m: string) => warnings.push(m) });
      expect(runtimes).toEqual({ blazeface: "onnxruntime", facemesh: "onnxruntime", iris: "onnxruntime", faceres: "wasm", antispoof: "onnxruntime", liveness: "onnxruntime" });
      expect(overallRuntime(runtimes)).toBe("mixed");
      expect(Object.keys(files).sort()).toEqual(["antispoof", "blazeface", "facemesh", "iris", "liveness"]);
      expect(warnings).toEqual(["vision: faceres is not loaded from a model file, it runs on WASM"]);
      // The swapped models answer through human as before.
      const input = await faceInput(human.models.models.blazeface.inputs[0].shape);
      const out = human.models.models.blazeface.execute(human.tf.tensor(input.data, input.shape));
      expect(out).toHaveLength(4);
    } finally {
      fs.rmSync(cacheDir, { recursive: true, force: true });
    }
  }, 60_000);

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
  // Each native worker converts into, or loads from, this directory (a fresh one: the first start converts).
  const modelDir = fs.mkdtempSync(path.join(os.tmpdir(), "vision-models-"));
  const pool = (runtime: "native" | "wasm") =>
    new Piscina({
      filename: path.join(process.cwd(), "workers", "vision-worker.mjs"),
      minThreads: 1,
      maxThreads: 1,
      env: { ...process.env, VISION_RUNTIME: runtime, VISION_MODEL_DIR: modelDir },
    });
  const native = pool("native");
  const wasm = pool("wasm");
  afterAll(async () => {
    await Promise.all([native.destroy(), wasm.destroy()]);
    fs.rmSync(modelDir, { recursive: true, force: true });
  });

  it("reports the runtime of each model", async () => {
    const all = (runtime: "onnxruntime" | "wasm") => ({ runtime, models: Object.fromEntries(FACE_MODELS.map((m) => [m, runtime])) as VisionRuntime["models"] });
    expect((await native.run({ op: "ping" })).value).toMatchObject(all("onnxruntime"));
    expect((await wasm.run({ op: "ping" })).value).toMatchObject(all("wasm"));
  }, 120_000);

  it("converts the models once: the first start writes their ONNX files, the next loads them, and converts again only a file altered on disk", async () => {
    await native.run({ op: "ping" });
    const sha256 = (file: string) => crypto.createHash("sha256").update(fs.readFileSync(path.join(modelDir, file))).digest("hex");
    const manifest = () => JSON.parse(fs.readFileSync(path.join(modelDir, "manifest.json"), "utf8")).files as Record<string, { model: string; sha256: string }>;
    const written = manifest();
    expect(Object.values(written).map((e) => e.model).sort()).toEqual([...FACE_MODELS].sort());
    for (const [file, entry] of Object.entries(written)) {
      expect(file).toMatch(new RegExp(`^${entry.model}\\.[0-9a-f]{16}\\.onnx$`));
      expect(sha256(file)).toBe(entry.sha256);
    }
    const files = Object.keys(written);
    const altered = files.find((f) => f.startsWith("liveness."))!;
    const bytes = fs.readFileSync(path.join(modelDir, altered));
    bytes[bytes.length - 1]! ^= 0xff;
    fs.writeFileSync(path.join(modelDir, altered), bytes);
    const before = Object.fromEntries(files.map((f) => [f, fs.statSync(path.join(modelDir, f)).mtimeMs]));

    const again = pool("native");
    try {
      expect((await again.run({ op: "ping" })).value).toMatchObject({ runtime: "onnxruntime" });
    } finally {
      await again.destroy();
    }
    const checksums = (files: ReturnType<typeof manifest>) => Object.fromEntries(Object.entries(files).map(([file, e]) => [file, e.sha256]));
    expect(checksums(manifest())).toEqual(checksums(written));
    expect(sha256(altered)).toBe(written[altered]!.sha256);
    for (const file of files.filter((f) => f !== altered)) expect(fs.statSync(path.join(modelDir, file)).mtimeMs).toBe(before[file]);
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
