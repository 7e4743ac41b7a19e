// Converts a loaded TensorFlow.js graph model (human's face models) into an
// ONNX model with the same weights and the same arithmetic, so that the
// native ONNX Runtime can run it (native-inference.mjs). No maintained
// JavaScript converter exists (tf2onnx is Python); this one covers exactly
// the operations of the models the vision worker loads and refuses any
// other, so a model update cannot be converted silently wrong.
//
// Layout: TensorFlow.js graphs are NHWC; ONNX convolutions are NCHW. The
// input is transposed once; every 4-D activation then stays NCHW, constants
// that broadcast against one are transposed alike, layout-bound operations
// (Reshape, ConcatV2, Mean, Pad) map their axes, and a 4-D output is
// transposed back. Equivalence is checked by tests/unit/native-inference.test.ts
// (both runtimes, the same faces, every output).
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { onnx } = require("onnx-proto");

const OPSET = 13;
const NHWC_TO_NCHW = [0, 3, 1, 2];
const NCHW_TO_NHWC = [0, 2, 3, 1];
/** NHWC axis -> NCHW axis. */
const AXIS_TO_NCHW = [0, 2, 3, 1];
const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;

class UnsupportedGraph extends Error {}

const attrOf = (node, key) => node.attr?.[key];
const intsOf = (node, key) => (attrOf(node, key)?.list?.i ?? []).map(Number);
const stringOf = (node, key) => {
  const s = attrOf(node, key)?.s;
  return s === undefined ? undefined : Buffer.from(s, "base64").toString("utf8");
};
const stringsOf = (node, key) => (attrOf(node, key)?.list?.s ?? []).map((s) => Buffer.from(s, "base64").toString("utf8"));
const boolOf = (node, key) => attrOf(node, key)?.b === true;
const floatOf = (node, key) => attrOf(node, key)?.f;

/** Input name without the output index or control marker ("conv:0" -> "conv"). */
const sourceName = (input) => input.replace(/^\^/, "").replace(/:0$/, "");

function permute(data, shape, perm) {
  const outShape = perm.map((p) => shape[p]);
  const out = new data.constructor(data.length);
  const strides = shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1));
  const outStrides = outShape.map((_, i) => outShape.slice(i + 1).reduce((a, b) => a * b, 1));
  const index = new Array(shape.length).fill(0);
  for (let o = 0; o < out.length; o++) {
    let rest = o;
    for (let d = 0; d < outShape.length; d++) {
      index[perm[d]] = Math.floor(rest / outStrides[d]);
      rest %= outStrides[d];
    }
    let src = 0;
    for (let d = 0; d < shape.length; d++) src += index[d] * strides[d];
    out[o] = data[src];
  }
  return { data: out, shape: outShape };
}

function tensorProto(name, data, shape) {
  const int = data instanceof BigInt64Array;
  return onnx.TensorProto.create({
    name,
    dims: shape,
    dataType: int ? INT64 : FLOAT,
    rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
  });
}

const attribute = (name, value) => {
  if (typeof value === "string") return onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.STRING, s: Buffer.from(value) });
  if (Array.isArray(value)) return onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.INTS, ints: value });
  if (Number.isInteger(value)) return onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.INT, i: value });
  return onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.FLOAT, f: value });
};

/**
 * @param {object} graph
 * @param {Array<object>} graph.nodes model.json's modelTopology.node
 * @param {(name: string) => {data: Float32Array|Int32Array, shape: number[]} | undefined} graph.constant a Const node's value
 * @param {string[]} graph.outputs the graph model's output node names, in the order execute() returns them
 * @returns {Uint8Array} the ONNX model
 */
export function tfjsGraphToOnnx({ nodes, constant, outputs }) {
  const onnxNodes = [];
  const initializers = [];
  const initialized = new Set();
  const values = new Map(); // TF node name -> { name, rank, nchw }
  const graphInputs = [];
  let counter = 0;
  const fresh = (base) => `${base}__${counter++}`;

  const emit = (opType, inputs, attrs = {}, base = opType) => {
    const output = fresh(base);
    onnxNodes.push(onnx.NodeProto.create({
      opType,
      input: inputs,
      output: [output],
      attribute: Object.entries(attrs).map(([k, v]) => attribute(k, v)),
    }));
    return output;
  };
  const initializer = (name, data, shape) => {
    if (!initialized.has(name)) {
      initialized.add(name);
      initializers.push(tensorProto(name, data, shape));
    }
    return name;
  };
  const int64 = (name, list) => initializer(name, BigInt64Array.from(list.map(BigInt)), [list.length]);
  const constValue = (input) => {
    const value = constant(sourceName(input));
    if (!value) throw new UnsupportedGraph(`input ${input} is not a constant`);
    return value;
  };
  const isConst = (input) => constant(sourceName(input)) !== undefined;
  const valueOf = (input) => {
    const v = values.get(sourceName(input));
    if (!v) throw new UnsupportedGraph(`input ${input} is not produced by a supported node`);
    return v;
  };
  /** A constant as an operand next to a tensor of the given layout. */
  const operand = (input, partner) => {
    const name = sourceName(input);
    const { data, shape } = constValue(input);
    const floats = Float32Array.from(data);
    if (!partner.nchw || shape.length === 0) return initializer(`${name}__plain`, floats, shape);
    const full = [...new Array(4 - shape.length).fill(1), ...shape];
    const t = permute(floats, full, NHWC_TO_NCHW);
    return initializer(`${name}__nchw`, t.data, t.shape);
  };
  const toNhwc = (v) => (v.nchw ? emit("Transpose", [v.name], { perm: NCHW_TO_NHWC }) : v.name);

  const convolution = (node, depthwise) => {
    const x = valueOf(node.input[0]);
    if (!x.nchw) throw new UnsupportedGraph(`${node.name}: convolution input is not 4-D`);
    if ((stringOf(node, "data_format") ?? "NHWC") !== "NHWC") throw new UnsupportedGraph(`${node.name}: data_format`);
    const filter = constValue(node.input[1]);
    const [kh, kw, cin, cout] = filter.shape;
    const w = depthwise
      ? { ...permute(Float32Array.from(filter.data), filter.shape, [2, 3, 0, 1]), shape: [cin * cout, 1, kh, kw] }
      : permute(Float32Array.from(filter.data), filter.shape, [3, 2, 0, 1]);
    const inputs = [x.name, initializer(`${sourceName(node.input[1])}__oihw`, w.data, w.shape)];
    const fused = stringsOf(node, "fused_ops");
    let activation;
    for (const op of fused) {
      if (op === "BiasAdd") inputs.push(initializer(`${sourceName(node.input[2])}__bias`, Float32Array.from(constValue(node.input[2]).data), constValue(node.input[2]).shape));
      else if (["Relu", "Relu6", "Prelu", "LeakyRelu"].includes(op) && !activation) activation = op;
      else throw new UnsupportedGraph(`${node.name}: fused op ${op}`);
    }
    const strides = intsOf(node, "strides");
    const dilations = intsOf(node, "dilations");
    const padding = stringOf(node, "padding");
    const attrs = {
      kernel_shape: [kh, kw],
      strides: [strides[1] ?? 1, strides[2] ?? 1],
      dilations: dilations.length ? [dilations[1], dilations[2]] : [1, 1],
      group: depthwise ? cin : 1,
    };
    if (padding === "SAME") attrs.auto_pad = "SAME_UPPER";
    else if (padding === "EXPLICIT") {
      const p = intsOf(node, "explicit_paddings");
      attrs.pads = [p[2], p[4], p[3], p[5]];
    } else if (padding !== "VALID") throw new UnsupportedGraph(`${node.name}: padding ${padding}`);
    const conv = emit("Conv", inputs, attrs, node.name);
    const out = { name: conv, rank: 4, nchw: true };
    return activation ? { ...out, name: activate(activation, conv, node, node.input[2 + (fused[0] === "BiasAdd" ? 1 : 0)], out) } : out;
  };
  const activate = (op, input, node, alphaInput, partner) => {
    if (op === "Relu") return emit("Relu", [input]);
    if (op === "Relu6") return emit("Clip", [input, initializer("relu6__min", new Float32Array([0]), []), initializer("relu6__max", new Float32Array([6]), [])]);
    if (op === "LeakyRelu") return emit("LeakyRelu", [input], { alpha: floatOf(node, "leakyrelu_alpha") ?? 0.2 });
    return emit("PRelu", [input, operand(alphaInput, partner)]);
  };

  for (const node of nodes) {
    const set = (v) => values.set(node.name, v);
    switch (node.op) {
      case "Const":
        break;
      case "Placeholder": {
        const dims = (attrOf(node, "shape")?.shape?.dim ?? []).map((d) => Number(d.size));
        if (dims.length !== 4) throw new UnsupportedGraph(`${node.name}: input of rank ${dims.length}`);
        graphInputs.push(onnx.ValueInfoProto.create({
          name: node.name,
          type: { tensorType: { elemType: FLOAT, shape: { dim: dims.map((d, i) => (d > 0 && i > 0 ? { dimValue: d } : { dimParam: "batch" })) } } },
        }));
        set({ name: emit("Transpose", [node.name], { perm: NHWC_TO_NCHW }), rank: 4, nchw: true });
        break;
      }
      case "Identity":
        set(valueOf(node.input[0]));
        break;
      case "Conv2D":
      case "_FusedConv2D":
        set(convolution(node, false));
        break;
      case "DepthwiseConv2dNative":
        if (node.input.length !== 2) throw new UnsupportedGraph(`${node.name}: fused depthwise`);
        set(convolution(node, true));
        break;
      case "Relu":
      case "Relu6":
      case "Sigmoid":
      case "Prelu": {
        const x = valueOf(node.input[0]);
        const name = node.op === "Sigmoid" ? emit("Sigmoid", [x.name]) : activate(node.op, x.name, node, node.input[1], x);
        set({ ...x, name });
        break;
      }
      case "Add":
      case "AddV2":
      case "Mul":
      case "Sub":
      case "Minimum":
      case "Maximum": {
        const opType = { Add: "Add", AddV2: "Add", Mul: "Mul", Sub: "Sub", Minimum: "Min", Maximum: "Max" }[node.op];
        const [a, b] = node.input;
        if (isConst(a) && isConst(b)) throw new UnsupportedGraph(`${node.name}: constant folding`);
        const tensor = isConst(a) ? valueOf(b) : valueOf(a);
        const side = (input) => (isConst(input) ? operand(input, tensor) : valueOf(input));
        const left = side(a);
        const right = side(b);
        for (const v of [left, right]) {
          if (typeof v !== "string" && v.nchw !== tensor.nchw) throw new UnsupportedGraph(`${node.name}: mixed layouts`);
        }
        const name = emit(opType, [typeof left === "string" ? left : left.name, typeof right === "string" ? right : right.name]);
        set({ name, rank: Math.max(tensor.rank, typeof left === "string" || typeof right === "string" ? 0 : Math.max(left.rank, right.rank)), nchw: tensor.nchw });
        break;
      }
      case "MaxPool": {
        const x = valueOf(node.input[0]);
        if (!x.nchw) throw new UnsupportedGraph(`${node.name}: pooling input is not 4-D`);
        const k = intsOf(node, "ksize");
        const s = intsOf(node, "strides");
        const padding = stringOf(node, "padding");
        if (padding !== "SAME" && padding !== "VALID") throw new UnsupportedGraph(`${node.name}: padding ${padding}`);
        const attrs = { kernel_shape: [k[1], k[2]], strides: [s[1], s[2]] };
        if (padding === "SAME") attrs.auto_pad = "SAME_UPPER";
        set({ ...x, name: emit("MaxPool", [x.name], attrs) });
        break;
      }
      case "Pad": {
        const x = valueOf(node.input[0]);
        const p = Array.from(constValue(node.input[1]).data, Number);
        if (!x.nchw || p.length !== 8) throw new UnsupportedGraph(`${node.name}: pad of a non 4-D tensor`);
        // NHWC [[n0,n1],[h0,h1],[w0,w1],[c0,c1]] -> ONNX NCHW [begins..., ends...]
        const pads = [p[0], p[6], p[2], p[4], p[1], p[7], p[3], p[5]];
        set({ ...x, name: emit("Pad", [x.name, int64(`${node.name}__pads`, pads)]) });
        break;
      }
      case "Reshape": {
        const x = valueOf(node.input[0]);
        const shape = Array.from(constValue(node.input[1]).data, Number);
        if (shape.includes(0)) throw new UnsupportedGraph(`${node.name}: zero in shape`);
        const name = emit("Reshape", [toNhwc(x), int64(`${node.name}__shape`, shape)]);
        set({ name, rank: shape.length, nchw: false });
        break;
      }
      case "ConcatV2": {
        const parts = node.input.slice(0, -1).map(valueOf);
        let axis = Number(constValue(node.input.at(-1)).data[0]);
        const { rank, nchw } = parts[0];
        if (parts.some((p) => p.nchw !== nchw || p.rank !== rank)) throw new UnsupportedGraph(`${node.name}: mixed layouts`);
        if (axis < 0) axis += rank;
        set({ name: emit("Concat", parts.map((p) => p.name), { axis: nchw ? AXIS_TO_NCHW[axis] : axis }), rank, nchw });
        break;
      }
      case "Mean": {
        const x = valueOf(node.input[0]);
        const axes = Array.from(constValue(node.input[1]).data, Number).map((a) => (a < 0 ? a + x.rank : a)).sort();
        const keep = boolOf(node, "keep_dims");
        if (x.nchw && !(axes.length === 2 && axes[0] === 1 && axes[1] === 2)) throw new UnsupportedGraph(`${node.name}: mean over axes ${axes}`);
        const mapped = x.nchw ? [2, 3] : axes;
        const name = emit("ReduceMean", [x.name], { axes: mapped, keepdims: keep ? 1 : 0 });
        set({ name, rank: keep ? x.rank : x.rank - axes.length, nchw: x.nchw && keep });
        break;
      }
      case "MatMul":
      case "_FusedMatMul": {
        const a = valueOf(node.input[0]);
        if (a.rank !== 2) throw new UnsupportedGraph(`${node.name}: matmul of rank ${a.rank}`);
        const b = constValue(node.input[1]);
        const inputs = [a.name, initializer(`${sourceName(node.input[1])}__plain`, Float32Array.from(b.data), b.shape)];
        let activation;
        for (const op of node.op === "MatMul" ? [] : stringsOf(node, "fused_ops")) {
          if (op === "BiasAdd") inputs.push(initializer(`${sourceName(node.input[2])}__bias`, Float32Array.from(constValue(node.input[2]).data), constValue(node.input[2]).shape));
          else if (["Relu", "Relu6", "LeakyRelu"].includes(op) && !activation) activation = op;
          else throw new UnsupportedGraph(`${node.name}: fused op ${op}`);
        }
        const gemm = emit("Gemm", inputs, { transA: boolOf(node, "transpose_a") ? 1 : 0, transB: boolOf(node, "transpose_b") ? 1 : 0 }, node.name);
        set({ name: activation ? activate(activation, gemm, node, undefined, a) : gemm, rank: 2, nchw: false });
        break;
      }
      case "Softmax": {
        const x = valueOf(node.input[0]);
        if (x.nchw) throw new UnsupportedGraph(`${node.name}: softmax over a 4-D tensor`);
        set({ ...x, name: emit("Softmax", [x.name], { axis: -1 }) });
        break;
      }
      default:
        throw new UnsupportedGraph(`${node.name}: operation ${node.op} is not supported`);
    }
  }

  const graphOutputs = outputs.map((tfName, i) => {
    const v = valueOf(tfName);
    const name = `output_${i}`;
    onnxNodes.push(onnx.NodeProto.create({ opType: "Identity", input: [toNhwc(v)], output: [name] }));
    return onnx.ValueInfoProto.create({ name, type: { tensorType: { elemType: FLOAT } } });
  });

  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: "svc-identity tfjs-graph-to-onnx",
    opsetImport: [{ domain: "", version: OPSET }],
    graph: { name: "graph", node: onnxNodes, initializer: initializers, input: graphInputs, output: graphOutputs },
  });
  return onnx.ModelProto.encode(model).finish();
}

export { UnsupportedGraph };
