// Runs human's face models on the native ONNX Runtime (onnxruntime-node's
// CPU build, shipped inside its npm package) instead of TensorFlow.js's WASM
// backend: the same graphs (converted by tfjs-graph-to-onnx.mjs), the same
// weights, float32 throughout, about 3-4x faster per core on AVX2/AVX-512
// machines. human keeps doing everything around the models (detection boxes,
// crops, rotation, mesh maps, head pose); only each model's execute() is
// swapped, so every threshold calibrated on its outputs still holds.
//
// human calls execute() synchronously, so the session is run through the
// binding's synchronous run (the public InferenceSession.run only wraps it in
// a promise). Each session uses one intra-op thread: the vision pool already
// runs one worker per core (VISION_THREADS).
import { createRequire } from "node:module";
import path from "node:path";
import { tfjsGraphToOnnx } from "./tfjs-graph-to-onnx.mjs";
import { packageDir } from "./package-dir.mjs";

const require = createRequire(import.meta.url);


let runtime;
function onnxRuntime() {
  if (!runtime) {
    const { binding, initOrt } = require(path.join(packageDir("onnxruntime-node"), "dist", "binding.js"));
    const { Tensor } = require("onnxruntime-common");
    initOrt();
    runtime = { binding, Tensor };
  }
  return runtime;
}

const SESSION_OPTIONS = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: "sequential",
  graphOptimizationLevel: "all",
  enableCpuMemArena: true,
};

/** The tfjs GraphModel's graph as ONNX bytes (throws UnsupportedGraph for an operation it does not know). */
export function graphModelToOnnx(graphModel) {
  const nodes = graphModel.artifacts.modelTopology.node;
  const weights = graphModel.weights;
  const constant = (name) => {
    const tensor = weights[name]?.[0];
    return tensor ? { data: tensor.dataSync(), shape: tensor.shape } : undefined;
  };
  // The graph nodes execute() returns, in its order (outputNodes gives signature keys instead).
  const outputs = graphModel.executor._outputs.map((node) => (node.defaultOutput ? `${node.name}:${node.defaultOutput}` : node.name));
  return tfjsGraphToOnnx({ nodes, constant, outputs });
}

/** A synchronous runner of the ONNX bytes: (Float32Array, dims) -> [{data, dims}] in output order. */
export function nativeSession(onnxBytes) {
  const { binding, Tensor } = onnxRuntime();
  const session = new binding.InferenceSession();
  session.loadModel(onnxBytes.buffer, onnxBytes.byteOffset, onnxBytes.byteLength, SESSION_OPTIONS);
  const inputName = session.inputMetadata[0].name;
  const outputNames = session.outputMetadata.map((m) => m.name);
  const fetches = Object.fromEntries(outputNames.map((n) => [n, null]));
  return (data, dims) => {
    const result = session.run({ [inputName]: new Tensor("float32", data, dims) }, fetches, {});
    return outputNames.map((n) => result[n]);
  };
}

/**
 * Swaps execute() of each named human model for the native session.
 * Returns the models that now run natively.
 */
export function runModelsNatively(human, names) {
  const tf = human.tf;
  const swapped = [];
  for (const name of names) {
    const graphModel = human.models.models[name];
    if (!graphModel?.executor) continue;
    const run = nativeSession(graphModelToOnnx(graphModel));
    graphModel.execute = (inputs, outputs) => {
      if (outputs !== undefined) throw new Error(`native ${name}: named outputs are not supported`);
      const input = Array.isArray(inputs) ? inputs[0] : inputs;
      const data = input.dtype === "float32" ? input.dataSync() : Float32Array.from(input.dataSync());
      const results = run(data, input.shape).map((r) => tf.tensor(r.data, r.dims.map(Number), "float32"));
      return results.length > 1 ? results : results[0];
    };
    swapped.push(name);
  }
  return swapped;
}
