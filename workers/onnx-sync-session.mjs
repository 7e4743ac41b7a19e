// Runs ONNX models synchronously through onnxruntime-node's public API.
//
// Why synchronously: human 3.3.6 calls each face model synchronously and
// uses the tensor it returns on the next line: `model.execute(...)` in
// src/face/blazeface.ts, facemesh.ts, iris.ts, faceres.ts, antispoof.ts and
// liveness.ts (only faceboxes.ts, which we do not load, uses executeAsync),
// and no setting changes that. onnxruntime-node's `InferenceSession.run`
// returns a promise.
//
// How: the sessions live in an inference thread (onnx-inference-thread.mjs:
// `InferenceSession.create`, `session.run`), called through synckit's
// `createSyncFn`: the calling thread posts a request and waits in
// `Atomics.wait` until the inference thread answers, then takes the answer
// with `receiveMessageOnPort`. synckit keeps one inference thread per worker
// file in each thread, so each vision worker thread (one per core) has its
// own, holding its own sessions, made once at model load. That thread is
// unref'd (it never keeps the process alive) and ends with its vision
// worker. An error of onnxruntime inside it is thrown here with its own
// message; a thread that could not start or has stopped throws "the ONNX
// Runtime inference thread stopped: ..." at this call and every later one.
import { fileURLToPath } from "node:url";
import { createSyncFn } from "synckit";

/**
 * One intra-op thread per session: the vision pool already runs one worker
 * per core (VISION_THREADS).
 */
export const SESSION_OPTIONS = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: "sequential",
  graphOptimizationLevel: "all",
  enableCpuMemArena: true,
};

const INFERENCE_THREAD = fileURLToPath(new URL("./onnx-inference-thread.mjs", import.meta.url));
let inferenceThread;

/** Asks this thread's inference thread (started at the first request) and waits for its answer. */
function request(name, ...args) {
  let answer;
  try {
    inferenceThread ??= createSyncFn(INFERENCE_THREAD);
    answer = inferenceThread(name, ...args);
  } catch (err) {
    throw new Error(`the ONNX Runtime inference thread stopped: ${err instanceof Error ? err.message : String(err)}`);
  }
  if ("error" in answer) throw new Error(answer.error);
  return answer.value;
}

/** Why the native runtime cannot load on this machine (or its thread cannot run), or null when it can. */
export function nativeRuntimeProblem() {
  try {
    request("probe");
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/**
 * A synchronous runner of ONNX bytes with one float32 input:
 * (Float32Array, dims) -> [{ data, dims }] in the model's output order.
 * The session is made now, once, in the inference thread. Input and outputs
 * cross by structured clone: synckit takes no transfer list per call, and a
 * SharedArrayBuffer would save nothing (onnxruntime-node refuses a tensor
 * on one, so the thread would copy it out again).
 * @param {Uint8Array} onnxBytes
 */
export function openSynchronousSession(onnxBytes) {
  const id = request("open", onnxBytes);
  return (data, dims) => request("run", id, data, dims);
}
