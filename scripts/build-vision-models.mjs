// `npm run models:build`: converts the face models to ONNX once, into the
// directory the vision workers read them from (VISION_MODEL_DIR, default
// DATA_DIR/vision-models), with their SHA-256 in its manifest.json. Run it at
// install or deploy (after `npm ci`, with the server's DATA_DIR) so the first
// start does not convert; a worker that finds a file missing or altered
// converts it again itself (workers/onnx-model-cache.mjs). Files already
// there and intact are checked, not rewritten. Prints one line per model.
import { FACE_MODELS, loadHumanFaceModels } from "../workers/human-face-models.mjs";
import { onnxModelFor } from "../workers/native-inference.mjs";
import { defaultOnnxCacheDir } from "../workers/onnx-model-cache.mjs";

const dir = process.env.VISION_MODEL_DIR || defaultOnnxCacheDir();
// The workers' default (VISION_GRAPH_REWRITE=off only serves the benchmark's baseline).
const rewriteGraph = process.env.VISION_GRAPH_REWRITE !== "off";
const { human, read } = await loadHumanFaceModels({ rewriteGraph });
for (const name of FACE_MODELS) {
  const loaded = read.get(name);
  if (!loaded) throw new Error(`${name} was not loaded from a model file`);
  const { file, from, bytes } = onnxModelFor(human, name, loaded, { cacheDir: dir });
  process.stdout.write(`${JSON.stringify({ model: name, file: `${dir}/${file}`, bytes: bytes.byteLength, from })}\n`);
}
