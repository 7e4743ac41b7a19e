import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
// @ts-expect-error plain .mjs module of the vision worker, no type declarations
import { readModelArtifacts } from "../../workers/model-file-loader.mjs";

/**
 * human's face models loaded in-process on TensorFlow.js's WASM backend, for
 * unit tests that compare a rewritten or converted graph with the shipped one.
 */
const require = createRequire(import.meta.url);
const humanDir = path.join(process.cwd(), "node_modules", "@vladmandic", "human");
export const modelsDir = path.join(humanDir, "models");

export type Tensor = { shape: number[]; dataSync(): Float32Array; dispose(): void };
export type GraphModel = {
  inputs: Array<{ shape: number[] }>;
  execute(x: Tensor, outputs?: string): Tensor | Tensor[];
};
export type Tf = {
  setBackend(name: string): Promise<boolean>;
  ready(): Promise<void>;
  loadGraphModel(handler: unknown): Promise<GraphModel>;
  io: { fromMemory(artifacts: unknown): unknown };
  tensor(values: Float32Array, shape: number[]): Tensor;
};

let tf: Promise<Tf> | undefined;

/** TensorFlow.js (human's build) on the WASM backend, from node_modules. */
export function wasmTf(): Promise<Tf> {
  tf ??= (async () => {
    const { Human } = require(path.join(humanDir, "dist", "human.node-wasm.js"));
    const wasmDir = path.join(process.cwd(), "node_modules", "@tensorflow", "tfjs-backend-wasm", "dist");
    const human = new Human({ backend: "wasm", wasmPath: `${pathToFileURL(wasmDir).href}/` });
    const t = human.tf as Tf & { wasm?: { setWasmPaths(p: string): void } };
    t.wasm?.setWasmPaths?.(`${wasmDir}/`);
    await t.setBackend("wasm");
    await t.ready();
    return t;
  })();
  return tf;
}

/** One of human's models from its model.json text (shipped, or rewritten) and its weights file. */
export async function loadFaceModel(name: string, modelJson = fs.readFileSync(path.join(modelsDir, `${name}.json`), "utf8")): Promise<GraphModel> {
  const t = await wasmTf();
  const model = JSON.parse(modelJson);
  const weightData = fs.readFileSync(path.join(modelsDir, `${name}.bin`));
  return t.loadGraphModel(
    t.io.fromMemory({
      modelTopology: model.modelTopology,
      signature: model.signature,
      weightSpecs: model.weightsManifest[0].weights,
      weightData: weightData.buffer.slice(weightData.byteOffset, weightData.byteOffset + weightData.byteLength),
    }),
  );
}

/** One of human's face models loaded as the vision worker loads it (workers/model-file-loader.mjs: graph rewritten), with what the ONNX conversion reads besides. */
export async function loadFaceModelAsTheWorkerDoes(name: string): Promise<{ model: GraphModel; nodes: unknown[]; source: Record<string, string> }> {
  const t = await wasmTf();
  const { artifacts, nodes, source } = readModelArtifacts(path.join(modelsDir, `${name}.json`), { rewriteGraph: true });
  return { model: await t.loadGraphModel(t.io.fromMemory(artifacts)), nodes, source };
}
