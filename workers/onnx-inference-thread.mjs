// The inference thread of one vision worker thread: holds that worker's ONNX
// Runtime sessions and runs them through onnxruntime-node's public API
// (`InferenceSession.create`, `session.run`). Started and called only by
// onnx-sync-session.mjs, through synckit's `createSyncFn`; never import it
// anywhere else (`runAsWorker` listens on the thread's port).
//
// Each request answers `{ value }` or `{ error }` (onnxruntime's own message),
// so the caller tells an error of a model from a thread that stopped, which
// synckit itself reports by throwing.
import { runAsWorker } from "synckit";
import { SESSION_OPTIONS } from "./onnx-sync-session.mjs";

let ort;
/** onnxruntime-node, imported once (rejects where the package has no binary for the platform, musl for one). */
const runtime = () => (ort ??= import("onnxruntime-node"));

/** The sessions made here, by id (their index). */
const sessions = [];

const requests = {
  /** onnxruntime-node's version, once its native binding has loaded. */
  async probe() {
    return (await runtime()).env.versions.node;
  },
  /** A session of the ONNX bytes (one float32 input): its id. */
  async open(onnxBytes) {
    const { InferenceSession } = await runtime();
    sessions.push(await InferenceSession.create(onnxBytes, SESSION_OPTIONS));
    return sessions.length - 1;
  },
  /** Runs session `id` on one float32 input: [{ data, dims }] in the model's output order. */
  async run(id, data, dims) {
    const { Tensor } = await runtime();
    const session = sessions[id];
    const results = await session.run({ [session.inputNames[0]]: new Tensor("float32", data, dims) });
    return session.outputNames.map((name) => ({ data: results[name].data, dims: results[name].dims }));
  },
};

runAsWorker(async (request, ...args) => {
  try {
    return { value: await requests[request](...args) };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
});
