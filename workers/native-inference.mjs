// Runs human's face models on the native ONNX Runtime (onnxruntime-node's
// CPU build, shipped inside its npm package) instead of TensorFlow.js's WASM
// backend: the same graphs (converted by graph-model-to-onnx.mjs, once: the
// ONNX files are kept by onnx-model-cache.mjs), the same weights, float32
// throughout, about 3-4x faster per core on AVX2/AVX-512 machines. human
// keeps doing everything around the models (detection boxes, crops,
// rotation, mesh maps, head pose); only each model's execute() is swapped,
// so every threshold calibrated on its outputs still holds.
//
// Each model is swapped on its own: one that cannot be converted or loaded
// stays on WASM (said on stderr) while the others run natively, and the
// report says which model runs where.
import { graphModelToOnnx, onnxConverterVersion } from "./graph-model-to-onnx.mjs";
import { cachedOnnxModel } from "./onnx-model-cache.mjs";
import { nativeRuntimeProblem, openSynchronousSession } from "./onnx-sync-session.mjs";

/**
 * Swaps human's model's execute() for a native session of the given ONNX bytes.
 * human calls execute() synchronously (onnx-sync-session.mjs says where and
 * how the session answers synchronously).
 */
export function swapExecute(human, name, onnxBytes) {
  const graphModel = human.models.models[name];
  const tf = human.tf;
  const run = openSynchronousSession(onnxBytes);
  graphModel.execute = (inputs, outputs) => {
    if (outputs !== undefined) throw new Error(`native ${name}: named outputs are not supported`);
    const input = Array.isArray(inputs) ? inputs[0] : inputs;
    const data = input.dtype === "float32" ? input.dataSync() : Float32Array.from(input.dataSync());
    const results = run(data, input.shape).map((r) => tf.tensor(r.data, r.dims.map(Number), "float32"));
    return results.length > 1 ? results : results[0];
  };
}

/**
 * The ONNX bytes of human's model `name`: from the cache directory, or
 * converted now (and kept there) when its file is missing or altered.
 * @param {{ nodes: object[], source: object }} loaded what model-file-loader.mjs read for it
 */
export function onnxModelFor(human, name, loaded, { cacheDir, warn }) {
  return cachedOnnxModel({
    dir: cacheDir,
    name,
    derivedFrom: { model: name, ...loaded.source, converter: onnxConverterVersion() },
    convert: () => graphModelToOnnx(human.models.models[name], loaded.nodes),
    warn,
  });
}

/**
 * Runs each named human model natively where it can.
 * @param {object} human a loaded Human
 * @param {string[]} names its models to swap
 * @param {object} options
 * @param {Map<string, { nodes: object[], source: object }>} options.read what model-file-loader.mjs read, by model
 * @param {string} options.cacheDir where the ONNX files are kept
 * @param {(message: string) => void} [options.warn]
 * @returns {{ runtimes: Record<string, "onnxruntime" | "wasm">, files: Record<string, { file: string, from: "cache" | "converted" }> }}
 */
export function runModelsNatively(human, names, { read, cacheDir, warn = (m) => process.stderr.write(`${m}\n`) }) {
  const runtimes = Object.fromEntries(names.map((name) => [name, "wasm"]));
  const files = {};
  const problem = nativeRuntimeProblem();
  if (problem) {
    warn(`vision: the native ONNX Runtime did not load, the face models run on WASM: ${problem}`);
    return { runtimes, files };
  }
  for (const name of names) {
    const graphModel = human.models.models[name];
    const loaded = read.get(name);
    if (!graphModel || !loaded) {
      warn(`vision: ${name} is not loaded from a model file, it runs on WASM`);
      continue;
    }
    try {
      const onnx = onnxModelFor(human, name, loaded, { cacheDir, warn });
      swapExecute(human, name, onnx.bytes);
      runtimes[name] = "onnxruntime";
      files[name] = { file: onnx.file, from: onnx.from };
    } catch (err) {
      warn(`vision: ${name} runs on WASM, the native ONNX Runtime did not take it: ${err instanceof Error ? err.message : err}`);
    }
  }
  return { runtimes, files };
}

/** One word for the runtimes of all models: "onnxruntime" or "wasm" when they all agree, else "mixed". */
export function overallRuntime(runtimes) {
  const distinct = [...new Set(Object.values(runtimes))];
  return distinct.length === 1 ? distinct[0] : "mixed";
}
