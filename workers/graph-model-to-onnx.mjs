// A loaded TensorFlow.js GraphModel as ONNX bytes (tfjs-graph-to-onnx.mjs
// does the graph), through the GraphModel's public getters only: the graph's
// nodes come from the model.json the loader read (model-file-loader.mjs),
// the decoded weights from `weights`, the outputs from `outputNodes` mapped
// through `modelSignature` exactly as GraphModel.execute() maps them, so the
// ONNX outputs come in the order execute() returns its tensors.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { tfjsGraphToOnnx } from "./tfjs-graph-to-onnx.mjs";
import { packageDir } from "./package-dir.mjs";

/** The graph nodes execute() returns, in its order ("Identity:0", "global_pooling/Mean"). */
export function outputNodeNames(graphModel) {
  const signatureOutputs = graphModel.modelSignature?.outputs ?? {};
  return graphModel.outputNodes.map((key) => signatureOutputs[key]?.name ?? key);
}

/**
 * @param {object} graphModel a loaded tfjs GraphModel
 * @param {object[]} nodes its graph's nodes as loaded (model.json's modelTopology.node, after any rewrite)
 * @returns {Uint8Array} the ONNX model (throws UnsupportedGraph for an operation it does not convert)
 */
export function graphModelToOnnx(graphModel, nodes) {
  const weights = graphModel.weights;
  const constant = (name) => {
    const tensor = weights[name]?.[0];
    return tensor ? { data: tensor.dataSync(), shape: tensor.shape } : undefined;
  };
  return tfjsGraphToOnnx({ nodes, constant, outputs: outputNodeNames(graphModel) });
}

const CONVERTER_SOURCES = ["tfjs-graph-to-onnx.mjs", "graph-model-to-onnx.mjs", "fuse-model-graph.mjs"];
const version = (pkg) => JSON.parse(fs.readFileSync(path.join(packageDir(pkg), "package.json"), "utf8")).version;

let converterVersion;
/**
 * What, besides a model's own files, decides its ONNX bytes: the
 * converter's code (hashed, so any edit makes a new version), the ONNX
 * protobuf encoder and TensorFlow.js's weight decoding.
 */
export function onnxConverterVersion() {
  converterVersion ??= {
    code_sha256: crypto
      .createHash("sha256")
      .update(CONVERTER_SOURCES.map((f) => fs.readFileSync(new URL(`./${f}`, import.meta.url))).join("\0"))
      .digest("hex"),
    "onnx-proto": version("onnx-proto"),
    "@tensorflow/tfjs-converter": version("@tensorflow/tfjs-converter"),
  };
  return converterVersion;
}
