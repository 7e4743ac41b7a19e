// human (@vladmandic/human) with the face models the checks use, loaded
// from node_modules on TensorFlow.js's WASM backend. Shared by the vision
// worker and `npm run models:build` (scripts/build-vision-models.mjs), so
// both load the very same graphs.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { registerModelFileLoader } from "./model-file-loader.mjs";
import { packageDir } from "./package-dir.mjs";

const require = createRequire(import.meta.url);

/** The models human runs for the face checks (its names in human.models.models, and their files' base names). */
export const FACE_MODELS = ["blazeface", "facemesh", "iris", "faceres", "antispoof", "liveness"];

const humanDir = packageDir("@vladmandic/human");
const wasmDir = path.join(packageDir("@tensorflow/tfjs-backend-wasm"), "dist");
export const HUMAN_VERSION = `human@${JSON.parse(fs.readFileSync(path.join(humanDir, "package.json"), "utf8")).version}`;

/**
 * A Human with its face models loaded (not warmed up), and what the model
 * loader read for each (model-file-loader.mjs).
 * @param {{ rewriteGraph: boolean }} options load the graphs through fuse-model-graph.mjs
 */
export async function loadHumanFaceModels({ rewriteGraph }) {
  const { Human } = require(path.join(humanDir, "dist", "human.node-wasm.js"));
  const human = new Human({
    backend: "wasm",
    wasmPath: `${pathToFileURL(wasmDir).href}/`,
    modelBasePath: `${pathToFileURL(path.join(humanDir, "models")).href}/`,
    debug: false,
    async: false,
    cacheSensitivity: 0,
    face: {
      enabled: true,
      detector: { enabled: true, rotation: true, maxDetected: 5, minConfidence: 0.3, return: false },
      mesh: { enabled: true },
      iris: { enabled: true },
      description: { enabled: true },
      emotion: { enabled: false },
      antispoof: { enabled: true },
      liveness: { enabled: true },
      attention: { enabled: false },
      gear: { enabled: false },
    },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    segmentation: { enabled: false },
    gesture: { enabled: true },
    filter: { enabled: false },
  });
  const read = registerModelFileLoader(human.tf, { rewriteGraph });
  await human.load();
  return { human, read };
}
