// Vision worker thread (piscina). Plain JavaScript that Next.js never
// bundles: routes send image bytes here (lib/vision/pool.ts), so model
// inference never blocks the web server's event loop. Everything loads from
// node_modules; nothing is fetched from the network.
import { createRequire } from "node:module";
import { threadId } from "node:worker_threads";
import { frontTextTask, mrzTask, pdf417Task, warmDocumentReaders } from "./document-reader.mjs";
import { FACE_MODELS, HUMAN_VERSION, loadHumanFaceModels } from "./human-face-models.mjs";
import { overallRuntime, runModelsNatively } from "./native-inference.mjs";
import { defaultOnnxCacheDir } from "./onnx-model-cache.mjs";
import { glareShare, keyLandmarks, moireScore } from "./presentation-cues.mjs";
import { skinColour } from "./skin-colour.mjs";
import { decodeImage, taskError } from "./task-error.mjs";

const require = createRequire(import.meta.url);

// Model graphs are loaded from disk through TensorFlow.js's load-router API
// (model-file-loader.mjs; nothing rewrites `fetch`) and rewritten on the way
// (fuse-model-graph.mjs: same weights, same arithmetic, fewer kernels)
// unless VISION_GRAPH_REWRITE=off, which only the benchmark's baseline uses.
const rewriteGraph = process.env.VISION_GRAPH_REWRITE !== "off";

// The face models run on the native ONNX Runtime (native-inference.mjs)
// unless VISION_RUNTIME=wasm, which keeps TensorFlow.js's WASM backend (the
// benchmark's baseline). Their ONNX files are converted once and kept in
// VISION_MODEL_DIR (default DATA_DIR/vision-models; `npm run models:build`
// writes them ahead). A model the native runtime cannot take (a platform
// onnxruntime-node has no binary for, such as musl) stays on WASM, and the
// worker says why on stderr: the same checks, about 3x slower. `ping`
// reports which runtime runs each model; the server logs it at start-up.
const nativeInference = process.env.VISION_RUNTIME !== "wasm";
const onnxCacheDir = process.env.VISION_MODEL_DIR || defaultOnnxCacheDir();

let ready;
/** How many times this thread has loaded the face models (1 unless a load failed): logged with each load. */
let loads = 0;

/**
 * The face models, loaded once per thread. Only a failed load is forgotten
 * (and tried again by the next task): a task's own failure, a bad image
 * above all, never drops the loaded models.
 */
function faceModels() {
  ready ??= load().then(
    (models) => {
      loads++;
      const log = { level: "info", time: new Date().toISOString(), message: "vision worker: face models loaded", thread: threadId, loads, runtime: models.runtime, models: models.models, onnx_files: models.onnxFiles };
      process.stdout.write(`${JSON.stringify(log)}\n`);
      return models;
    },
    (err) => {
      ready = undefined;
      throw err;
    },
  );
  return ready;
}

async function load() {
  const sharp = require("sharp");
  const { human, read } = await loadHumanFaceModels({ rewriteGraph });
  let models = Object.fromEntries(FACE_MODELS.map((name) => [name, "wasm"]));
  let onnxFiles = {};
  if (nativeInference) {
    const native = runModelsNatively(human, FACE_MODELS, { read, cacheDir: onnxCacheDir });
    models = native.runtimes;
    onnxFiles = Object.fromEntries(Object.entries(native.files).map(([name, { file, from }]) => [name, `${file} (${from})`]));
  }
  await human.warmup().catch(() => {});
  return { human, sharp, runtime: overallRuntime(models), models, onnxFiles };
}

/** Eye aspect ratio from mesh points (about 0.08 closed, 0.3 and more open). */
function eyeAspectRatio(annotations, side) {
  const upper = annotations?.[`${side}EyeUpper0`];
  const lower = annotations?.[`${side}EyeLower0`];
  if (!upper || !lower || upper.length < 5 || lower.length < 5) return null;
  const width = Math.hypot(upper[0][0] - upper[upper.length - 1][0], upper[0][1] - upper[upper.length - 1][1]);
  const mid = Math.floor(upper.length / 2);
  const height = Math.hypot(upper[mid][0] - lower[mid][0], upper[mid][1] - lower[mid][1]);
  return width > 0 ? height / width : null;
}

/**
 * Mouth shape from mesh points, for the smile action (lib/liveness/liveness-verdict.ts):
 * `width`, the distance between the mouth corners (mesh 61, 291) over the
 * distance between the outer eye corners (33, 263); `lift`, how far the
 * corners sit above the middle of the lips (13 upper, 14 lower), measured
 * across the eye axis (so a tilted head does not change it), over the same
 * eye distance: a smile widens the mouth and raises its corners. Null
 * without a mesh.
 */
function mouthShape(mesh) {
  if (!Array.isArray(mesh) || mesh.length < 468) return null;
  const [l, r, ml, mr, up, low] = [33, 263, 61, 291, 13, 14].map((i) => mesh[i]);
  const ex = r[0] - l[0];
  const ey = r[1] - l[1];
  const eyes = Math.hypot(ex, ey);
  if (!(eyes > 0)) return null;
  // Unit vector across the eye axis, pointing down the face.
  const [vx, vy] = [-ey / eyes, ex / eyes];
  const across = (p) => p[0] * vx + p[1] * vy;
  const corners = (across(ml) + across(mr)) / 2;
  const middle = (across(up) + across(low)) / 2;
  const round = (x) => Math.round(x * 1000) / 1000;
  return { width: round(Math.hypot(mr[0] - ml[0], mr[1] - ml[1]) / eyes), lift: round((middle - corners) / eyes) };
}

/** Detects faces in one image: box, scores, embedding, head pose, eye openness. */
async function analyseFaces(bytes) {
  const { human, sharp } = await faceModels();
  const started = performance.now();
  const { data, info } = await decodeImage(() =>
    sharp(Buffer.from(bytes)).rotate().removeAlpha().resize({ width: 1024, height: 1024, fit: "inside", withoutEnlargement: true }).raw().toBuffer({ resolveWithObject: true }),
  );
  const tensor = human.tf.tensor(new Uint8Array(data), [info.height, info.width, 3], "int32");
  try {
    const result = await human.detect(tensor);
    const faces = result.face.map((f) => ({
      box: f.box,
      score: f.score,
      box_score: f.boxScore,
      face_score: f.faceScore,
      embedding: f.embedding ? Array.from(f.embedding) : null,
      rotation: f.rotation?.angle ? { yaw: f.rotation.angle.yaw, pitch: f.rotation.angle.pitch, roll: f.rotation.angle.roll } : null,
      ear: { left: eyeAspectRatio(f.annotations, "left"), right: eyeAspectRatio(f.annotations, "right") },
      antispoof: f.real ?? null,
      live: f.live ?? null,
      landmarks: keyLandmarks(f.mesh),
      mouth: mouthShape(f.mesh),
      texture: { moire: moireScore(data, info.width, info.height, f.box), glare: glareShare(data, info.width, info.height, f.box) },
      skin_rgb: skinColour(data, info.width, info.height, f.box),
    }));
    return { faces, width: info.width, height: info.height, ms: Math.round(performance.now() - started), model: HUMAN_VERSION };
  } finally {
    human.tf.dispose(tensor);
  }
}

/**
 * Piscina task entry: errors are returned, never thrown (a throw at load
 * would hang the pool); an image that does not decode is `bad_input`
 * (workers/task-error.mjs). `ping` also says how many times this thread
 * loaded the face models.
 */
export default async function run(task) {
  try {
    if (task.op === "pdf417") return await pdf417Task(task.image);
    if (task.op === "mrz") return await mrzTask(task.image);
    if (task.op === "front_text") return await frontTextTask(task.image);
    if (task.op === "faces") return { ok: true, value: await analyseFaces(task.image) };
    if (task.op === "ping") {
      const [{ runtime, models }] = await Promise.all([faceModels(), warmDocumentReaders()]);
      return { ok: true, value: { model: HUMAN_VERSION, runtime, models, loads } };
    }
    return { ok: false, error: `unknown op ${task.op}` };
  } catch (err) {
    return taskError(err);
  }
}
