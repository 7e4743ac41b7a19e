// Loads human's models from disk through TensorFlow.js's own model-loading
// API, so nothing rewrites the global `fetch`.
//
// human 3.3.6 loads each model as `new tf.GraphModel(url, { fetchFunc })`
// (src/tfjs/load.ts); tfjs-converter's GraphModel asks `tf.io.getLoadHandlers(url)`
// for a handler and only falls back to HTTP (that `fetch`, which in Node
// cannot read file:// URLs) when no registered router claims the URL. The
// router registered here claims file:// model.json URLs and answers with the
// model's artifacts read from disk: its graph (rewritten by
// fuse-model-graph.mjs unless the caller asks for the shipped one) and its
// weight files, concatenated in the manifest's order as tfjs does.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fuseModelGraph } from "./fuse-model-graph.mjs";

const sha256 = (bytes) => crypto.createHash("sha256").update(bytes).digest("hex");

/**
 * One model.json and its weight files as TensorFlow.js model artifacts,
 * with what the ONNX conversion needs besides the loaded model: the graph's
 * nodes as loaded and the SHA-256 of the files read.
 * @param {string} jsonFile path of the model.json
 * @param {{ rewriteGraph: boolean }} options whether to load the graph through fuse-model-graph.mjs
 */
export function readModelArtifacts(jsonFile, { rewriteGraph }) {
  const text = fs.readFileSync(jsonFile);
  const graphText = rewriteGraph ? fuseModelGraph(text.toString("utf8")).text : text.toString("utf8");
  const model = JSON.parse(graphText);
  const groups = model.weightsManifest ?? [];
  const weights = Buffer.concat(groups.flatMap((group) => group.paths.map((p) => fs.readFileSync(path.join(path.dirname(jsonFile), p)))));
  return {
    artifacts: {
      modelTopology: model.modelTopology,
      signature: model.signature,
      format: model.format,
      generatedBy: model.generatedBy,
      convertedBy: model.convertedBy,
      userDefinedMetadata: model.userDefinedMetadata,
      weightSpecs: groups.flatMap((group) => group.weights),
      weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
    },
    nodes: model.modelTopology.node,
    source: { graph: rewriteGraph ? "rewritten" : "shipped", model_json_sha256: sha256(text), weights_sha256: sha256(weights) },
  };
}

/** The loader's state per TensorFlow.js instance: registered once, since a second router claiming the same URLs would make tfjs refuse both. */
const loaders = new WeakMap();

/**
 * Registers the file:// model loader with this thread's TensorFlow.js (call
 * before human.load(); calling again, after a failed load, reuses the one
 * registered). Returns what it read, by model name (the file's base name:
 * "faceres" for faceres.json).
 * @param {{ io: { registerLoadRouter(router: (url: unknown) => object | null): void } }} tf human.tf
 * @param {{ rewriteGraph: boolean }} options
 * @returns {Map<string, { nodes: object[], source: object }>}
 */
export function registerModelFileLoader(tf, { rewriteGraph }) {
  let loader = loaders.get(tf.io);
  if (!loader) {
    loader = { rewriteGraph, read: new Map() };
    loaders.set(tf.io, loader);
    const state = loader;
    tf.io.registerLoadRouter((url) => {
      if (typeof url !== "string" || !url.startsWith("file://") || !url.endsWith(".json")) return null;
      return {
        load: async () => {
          const file = fileURLToPath(url);
          const { artifacts, nodes, source } = readModelArtifacts(file, { rewriteGraph: state.rewriteGraph });
          state.read.set(path.basename(file, ".json"), { nodes, source });
          return artifacts;
        },
      };
    });
  }
  loader.rewriteGraph = rewriteGraph;
  loader.read.clear();
  return loader.read;
}
