// Graph rewrite of a TensorFlow.js graph model (model.json) before it loads,
// with the same weights and the same arithmetic, fewer passes over memory.
//
// human's face-description model (faceres, a MobileNet whose Keras export
// kept every layer unfused) spells ReLU6 as Relu -> Minimum(6) -> Maximum(0)
// and the batch-norm bias as a separate Add after each Conv2D. On the WASM
// backend the broadcast Minimum/Maximum kernels are scalar loops: profiled on
// one core they took 45 of the model's ~89 ms per frame. Rewritten:
//   Relu -> Minimum(c) -> Maximum(c')        becomes  Relu6
//   Conv2D -> Add(bias[C]) -> Relu6          becomes  _FusedConv2D(BiasAdd, Relu6)
// Relu6 is min(max(x, 0), 6), identical to max(min(relu(x), 6), 0) for every
// x; the constants are checked to be 6 and 0 by the equivalence test
// (tests/unit/fuse-model-graph.test.ts runs both graphs on the same faces).

const b64 = (s) => Buffer.from(s, "utf8").toString("base64");

function consumersOf(nodes) {
  const byInput = new Map();
  for (const node of nodes) {
    for (const input of node.input ?? []) {
      const name = input.replace(/^\^/, "").split(":")[0];
      if (!byInput.has(name)) byInput.set(name, []);
      byInput.get(name).push(node);
    }
  }
  return (name) => byInput.get(name) ?? [];
}

function isScalarConst(nodesByName, name) {
  const node = nodesByName.get(name);
  const dims = node?.attr?.value?.tensor?.tensorShape?.dim;
  return node?.op === "Const" && (!dims || dims.length === 0);
}

/** Relu -> Minimum(const) -> Maximum(const) chains become one Relu6; returns how many. */
function fuseRelu6(topology) {
  let nodes = topology.node;
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const consumers = consumersOf(nodes);
  const dropped = new Set();
  const renamed = new Map();
  for (const relu of nodes) {
    if (relu.op !== "Relu") continue;
    const [min] = consumers(relu.name);
    if (consumers(relu.name).length !== 1 || min.op !== "Minimum" || !isScalarConst(byName, min.input[1])) continue;
    const [max] = consumers(min.name);
    if (consumers(min.name).length !== 1 || max.op !== "Maximum" || !isScalarConst(byName, max.input[1])) continue;
    relu.op = "Relu6";
    dropped.add(min.name).add(max.name);
    renamed.set(max.name, relu.name);
  }
  nodes = nodes.filter((n) => !dropped.has(n.name));
  for (const node of nodes) node.input = node.input?.map((i) => renamed.get(i) ?? i);
  topology.node = nodes;
  return renamed.size;
}

/** Conv2D -> Add(1-D const) -> Relu6 chains become one _FusedConv2D; returns how many. */
function fuseConvBiasRelu6(topology) {
  let nodes = topology.node;
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const consumers = consumersOf(nodes);
  const dropped = new Set();
  const replaced = new Map();
  for (const conv of nodes) {
    if (conv.op !== "Conv2D") continue;
    const [add] = consumers(conv.name);
    if (consumers(conv.name).length !== 1 || add.op !== "Add" || add.input[0] !== conv.name) continue;
    const bias = byName.get(add.input[1]);
    if (bias?.op !== "Const" || bias.attr?.value?.tensor?.tensorShape?.dim?.length !== 1) continue;
    const [act] = consumers(add.name);
    if (consumers(add.name).length !== 1 || act.op !== "Relu6") continue;
    dropped.add(conv.name).add(add.name);
    replaced.set(act.name, {
      name: act.name,
      op: "_FusedConv2D",
      input: [conv.input[0], conv.input[1], add.input[1]],
      device: conv.device,
      attr: {
        ...conv.attr,
        num_args: { i: "1" },
        epsilon: { f: 0 },
        fused_ops: { list: { s: [b64("BiasAdd"), b64("Relu6")] } },
      },
    });
  }
  nodes = nodes.filter((n) => !dropped.has(n.name)).map((n) => replaced.get(n.name) ?? n);
  topology.node = nodes;
  return replaced.size;
}

/** The model.json text, rewritten (returns the input unchanged when no pattern is found). */
export function fuseModelGraph(jsonText) {
  const model = JSON.parse(jsonText);
  const topology = model.modelTopology;
  if (!topology?.node) return { text: jsonText, relu6: 0, fusedConv: 0 };
  const relu6 = fuseRelu6(topology);
  const fusedConv = relu6 ? fuseConvBiasRelu6(topology) : 0;
  return { text: relu6 ? JSON.stringify(model) : jsonText, relu6, fusedConv };
}
