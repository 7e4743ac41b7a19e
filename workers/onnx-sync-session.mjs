// The one place the vision worker runs ONNX Runtime below its public API.
//
// Why: human 3.3.6 calls each face model synchronously and uses the tensor
// it returns on the next line: `model.execute(...)` in src/face/blazeface.ts,
// facemesh.ts, iris.ts, faceres.ts, antispoof.ts and liveness.ts (only
// faceboxes.ts, which we do not load, uses executeAsync), and no setting
// changes that (its `async` option only decides whether the face models
// run one after another or under Promise.all). onnxruntime-node 1.30's
// public `InferenceSession.run` returns a promise (its session handler
// runs the binding's synchronous `run` inside setImmediate), and that
// handler keeps the binding session in a private class field, so a session
// made by `InferenceSession.create` cannot be run synchronously. This
// module therefore makes the same binding session the public handler makes
// (dist/binding.js: `initOrt()`, `new binding.InferenceSession()`,
// `loadModel(buffer, offset, length, options)`) and calls the same `run`,
// without the promise. tests/unit/native-inference.test.ts checks that its
// outputs equal, bit for bit, those of a session made by the public
// `InferenceSession.create` on the same bytes.
import { createRequire } from "node:module";
import path from "node:path";
import { packageDir } from "./package-dir.mjs";

const require = createRequire(import.meta.url);

/**
 * One intra-op thread per session: the vision pool already runs one worker
 * per core (VISION_THREADS). Also what the equivalence test gives the public
 * InferenceSession.create.
 */
export const SESSION_OPTIONS = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: "sequential",
  graphOptimizationLevel: "all",
  enableCpuMemArena: true,
};

let ort;
/** onnxruntime-node's native binding, loaded once (throws where the package has no binary for the platform, musl for one). */
function nativeBinding() {
  if (!ort) {
    const { binding, initOrt } = require(path.join(packageDir("onnxruntime-node"), "dist", "binding.js"));
    const { Tensor } = require("onnxruntime-common");
    initOrt();
    ort = { binding, Tensor };
  }
  return ort;
}

/** Why the native runtime cannot load on this machine, or null when it can. */
export function nativeRuntimeProblem() {
  try {
    nativeBinding();
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/**
 * A synchronous runner of ONNX bytes with one float32 input:
 * (Float32Array, dims) -> [{ data, dims }] in the model's output order.
 * @param {Uint8Array} onnxBytes
 */
export function openSynchronousSession(onnxBytes) {
  const { binding, Tensor } = nativeBinding();
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
