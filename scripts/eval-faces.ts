/**
 * `npm run eval:faces`: face embedding evaluation on every face available
 * offline, to choose the face_match and face_uniqueness thresholds
 * (lib/workflows/settings.ts). Prints the same-person (genuine) and
 * different-person (impostor) cosine similarity distributions, the threshold
 * reaching a false match rate (FMR) of 1e-2 and 1e-3 where the number of
 * impostor pairs supports it, the false non-match rate (FNMR) there, and the
 * error rates at the current settings.
 *
 * Identities are labelled by hand, by looking at the photos; only person A's
 * first nine photos are given as one man by the image's own layout. So:
 *   - "certain" impostor pairs are between faces that cannot be the same
 *     person (person A vs women and clearly different men, the rendered
 *     character vs photos, the Debian photos vs everyone);
 *   - "visual" impostor pairs add every other pair of grid faces that look
 *     like different people, leaving out look-alike pairs that might be one
 *     person. An unrecognised same-person pair there raises the measured FMR
 *     (errs on the safe side).
 * Sources: @vladmandic/human assets (MIT): screenshot-facematch.jpg (grid of
 * ~100 px face crops, 18 x 6), screenshot-faceid.jpg and
 * screenshot-facedetect.jpg (person A); Debian package images when installed
 * (or extracted under $FACE_EVAL_DEBIAN_ROOT with `dpkg-deb -x`):
 * facedetect grace_hopper_512x512.jpg, python3-skimage astronaut.png,
 * opencv-doc messi5.jpg.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { analyseFaces, closeVisionPool, cosineSimilarity, type FaceAnalysis } from "@/lib/vision/pool";
import { FEATURE_SETTINGS } from "@/lib/workflows/settings";
import { fitStrangerTail, tailCheck, thresholdFor, type TailFit } from "./stranger-tail";

const HUMAN_ASSETS = path.join("node_modules", "@vladmandic", "human", "assets");
const GRID = path.join(HUMAN_ASSETS, "screenshot-facematch.jpg");
const faceMatch = FEATURE_SETTINGS.face_match.parse({});
const CURRENT = {
  face_match: faceMatch.threshold,
  face_match_review_margin: faceMatch.review_margin,
  face_uniqueness: FEATURE_SETTINGS.face_uniqueness.parse({}).threshold,
  liveness_same_person: 0.62,
};
/** Where `--write-distribution` puts the fitted stranger distribution that `npm run bench:gallery` seeds its gallery with. */
export const STRANGER_DISTRIBUTION_FILE = path.join("tests", "fixtures", "faces", "stranger-similarity.json");
const GALLERY_SIZES = [10_000, 100_000, 1_000_000];

type Face = { id: string; identity: string; embedding: number[] };

// ---------------------------------------------------------------------------
// Identity labels

const cellId = (row: number, col: number) => `r${row}c${col}`;
const range = (row: number, from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => cellId(row, from + i));

/** Person A: row 0's first nine photos (given), the rest of row 0 and r1c0 (the same man, by eye). */
const A_GIVEN = range(0, 0, 8);
const A_BY_EYE = [...range(0, 9, 17), "r1c0"];
/** Men in sunglasses or blurred who might be A: left out of every pair. */
const MAYBE_A = ["r1c1", "r1c2", "r1c3", "r1c8"];
/** One rendered (CGI) woman, three renders. */
const RENDERED = ["r4c0", "r5c3", "r5c12"];
/** Look-alike groups that might be one person each: no impostor pair inside a group. */
const LOOK_ALIKES = [
  ["r2c5", "r2c6", "r2c12"],
  ["r4c12", "r5c9"],
  ["r3c2", "r5c7"],
  ["r5c8", "r5c13"],
  ["r5c0", "r5c4"],
  ["r2c1", "r4c16", "r1c17"],
  ["r4c7", "r4c13", "r5c10"],
  ["r3c0", "r3c9"],
  ["r4c5", "r4c6"],
];

function identityOfCell(id: string): string | null {
  if (A_GIVEN.includes(id) || A_BY_EYE.includes(id)) return "A";
  if (MAYBE_A.includes(id)) return null;
  if (RENDERED.includes(id)) return "rendered";
  return `grid:${id}`;
}

const lookAlikeGroup = (id: string) => LOOK_ALIKES.findIndex((g) => g.includes(id.split("/")[0]!));

// ---------------------------------------------------------------------------
// Faces

/** The largest face of an image, or the one whose box contains `at`. */
function pickFace(analysis: FaceAnalysis, at?: { x: number; y: number }) {
  const faces = at
    ? analysis.faces.filter((f) => at.x >= f.box[0] && at.x <= f.box[0] + f.box[2] && at.y >= f.box[1] && at.y <= f.box[1] + f.box[3])
    : analysis.faces;
  return faces.reduce<(typeof faces)[number] | null>((best, f) => (!best || f.box[2] * f.box[3] > best.box[2] * best.box[3] ? f : best), null);
}

async function gridFaces(): Promise<{ faces: Face[]; missed: string[] }> {
  const ids: Array<[number, number]> = [];
  for (let row = 0; row < 6; row++) for (let col = 0; col < 18; col++) ids.push([row, col]);
  const faces: Face[] = [];
  const missed: string[] = [];
  await Promise.all(
    ids.map(async ([row, col]) => {
      const id = cellId(row, col);
      const identity = identityOfCell(id);
      if (!identity) return;
      const crop = await sharp(GRID)
        .extract({ left: Math.round(col * 106.67) + 2, top: 280 + row * 110 + 2, width: 100, height: 100 })
        .resize(256)
        .jpeg()
        .toBuffer();
      const face = pickFace(await analyseFaces(crop));
      if (face?.embedding) faces.push({ id, identity, embedding: face.embedding });
      else missed.push(id);
    }),
  );
  return { faces, missed };
}

function debianImage(relative: string): string | null {
  for (const root of [process.env.FACE_EVAL_DEBIAN_ROOT, "/"].filter((r): r is string => Boolean(r))) {
    const file = path.join(root, relative);
    if (fs.existsSync(file)) return file;
  }
  return null;
}

/** Whole images with one known person each (`at`: a point inside the wanted face). */
const WHOLE_IMAGES: Array<{ id: string; identity: string; file: string | null; at?: { x: number; y: number } }> = [
  { id: "screenshot-faceid", identity: "A", file: path.join(HUMAN_ASSETS, "screenshot-faceid.jpg") },
  { id: "screenshot-facedetect/A", identity: "A", file: path.join(HUMAN_ASSETS, "screenshot-facedetect.jpg"), at: { x: 80, y: 420 } },
  { id: "grace_hopper", identity: "debian:grace_hopper", file: debianImage("usr/share/doc/facedetect/examples/grace_hopper_512x512.jpg") },
  { id: "astronaut", identity: "debian:astronaut", file: debianImage("usr/lib/python3/dist-packages/skimage/data/astronaut.png") },
  { id: "messi5", identity: "debian:messi", file: debianImage("usr/share/doc/opencv-doc/examples/data/messi5.jpg") },
];

async function wholeImageFaces(): Promise<{ faces: Face[]; absent: string[] }> {
  const faces: Face[] = [];
  const absent: string[] = [];
  for (const image of WHOLE_IMAGES) {
    if (!image.file) {
      absent.push(image.id);
      continue;
    }
    const face = pickFace(await analyseFaces(await sharp(image.file).jpeg().toBuffer()), image.at);
    if (face?.embedding) faces.push({ id: image.id, identity: image.identity, embedding: face.embedding });
    else absent.push(`${image.id} (no face found)`);
  }
  return { faces, absent };
}

// ---------------------------------------------------------------------------
// Pairs and statistics

type Pairs = {
  genuineGiven: number[];
  genuineAll: number[];
  impostorCertain: number[];
  impostorVisual: number[];
  /** The highest-scoring impostor pairs, for a look at the photos. */
  topImpostors: Array<{ s: number; a: string; b: string; certain: boolean }>;
};

/** Is this pair certainly two different people? (A vs anyone else, rendered vs photos, Debian photos vs anyone.) */
const certainlyDifferent = (a: Face, b: Face) =>
  a.identity !== b.identity && [a, b].some((f) => f.identity === "A" || f.identity === "rendered" || f.identity.startsWith("debian:"));

function formPairs(faces: Face[]): Pairs {
  const pairs: Pairs = { genuineGiven: [], genuineAll: [], impostorCertain: [], impostorVisual: [], topImpostors: [] };
  for (let i = 0; i < faces.length; i++) {
    for (let j = i + 1; j < faces.length; j++) {
      const a = faces[i]!;
      const b = faces[j]!;
      const s = cosineSimilarity(a.embedding, b.embedding);
      if (a.identity === b.identity) {
        pairs.genuineAll.push(s);
        if (A_GIVEN.includes(a.id) && A_GIVEN.includes(b.id)) pairs.genuineGiven.push(s);
        continue;
      }
      const certain = certainlyDifferent(a, b);
      if (certain) pairs.impostorCertain.push(s);
      const group = lookAlikeGroup(a.id);
      if (group >= 0 && group === lookAlikeGroup(b.id)) continue;
      pairs.impostorVisual.push(s);
      pairs.topImpostors.push({ s, a: a.id, b: b.id, certain });
    }
  }
  pairs.topImpostors = pairs.topImpostors.sort((x, y) => y.s - x.s).slice(0, 8);
  return pairs;
}

function quantile(sorted: number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

const f3 = (x: number) => x.toFixed(3);
const pct = (x: number) => `${(100 * x).toFixed(x > 0 && x < 0.01 ? 2 : 1)}%`;

function distributionLine(name: string, values: number[]): string {
  if (!values.length) return `${name.padEnd(34)} n=0`;
  const s = [...values].sort((a, b) => a - b);
  const qs = [0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99].map((q) => `p${String(Math.round(q * 100)).padStart(2, "0")} ${f3(quantile(s, q))}`);
  return `${name.padEnd(34)} n=${String(s.length).padStart(5)}  min ${f3(s[0]!)}  ${qs.join("  ")}  max ${f3(s.at(-1)!)}`;
}

const rateAtOrAbove = (values: number[], t: number) => values.filter((v) => v >= t).length / values.length;
const rateBelow = (values: number[], t: number) => values.filter((v) => v < t).length / values.length;

/**
 * The lowest threshold (3 decimals) whose FMR is at most `fmr`, or null when
 * the impostor pairs cannot support it: by the rule of three, N pairs with no
 * error bound the FMR at 3/N (95%), so `fmr` needs N >= 3 / fmr.
 */
function thresholdForFmr(impostors: number[], fmr: number): number | null {
  if (impostors.length < 3 / fmr) return null;
  const desc = [...impostors].sort((a, b) => b - a);
  const allowed = Math.floor(fmr * desc.length);
  // Just above the (allowed + 1)-th highest impostor score.
  return Math.ceil((desc[allowed]! + 1e-9) * 1000) / 1000;
}

// ---------------------------------------------------------------------------

async function main() {
  const started = performance.now();
  const [grid, whole] = await Promise.all([gridFaces(), wholeImageFaces()]);
  const faces = [...grid.faces, ...whole.faces].sort((a, b) => a.id.localeCompare(b.id));
  const p = formPairs(faces);
  const genuineFaces = faces.filter((f) => f.identity === "A").length;
  const identities = new Set(faces.map((f) => f.identity));

  console.log("Face embedding evaluation (@vladmandic/human faceres, 1024-d, cosine similarity)");
  console.log(`faces: ${faces.length} (grid: ${grid.faces.length} of 108 cells, ${MAYBE_A.length} left out as maybe-A, no face found in ${grid.missed.sort().join(", ") || "none"}), identities labelled: ${identities.size}`);
  console.log(`whole images: ${whole.faces.map((f) => f.id).join(", ")}${whole.absent.length ? `; not available: ${whole.absent.join(", ")}` : ""}`);
  console.log(`person A: ${genuineFaces} faces (${A_GIVEN.length} given by the grid's first row, the rest by eye); rendered character: ${RENDERED.length} renders`);
  console.log("grid crops are ~100 px faces upscaled to 256 px: lower quality than a selfie, so genuine scores run low.\n");

  console.log("Similarity distributions");
  console.log(distributionLine("genuine, A's 9 given photos", p.genuineGiven));
  console.log(distributionLine("genuine, all labelled", p.genuineAll));
  console.log(distributionLine("impostor, certain", p.impostorCertain));
  console.log(distributionLine("impostor, visual labels", p.impostorVisual));

  console.log("\nThreshold for a target false match rate (FNMR = genuine pairs below it)");
  const recommended: Record<string, number | null> = {};
  for (const [name, impostors] of [
    ["certain impostors", p.impostorCertain],
    ["visual impostors", p.impostorVisual],
  ] as const) {
    for (const fmr of [1e-2, 1e-3]) {
      const t = thresholdForFmr(impostors, fmr);
      recommended[`${name}@${fmr}`] = t;
      if (t === null) {
        console.log(`  FMR ${fmr.toExponential(0)} on ${name}: not supported by ${impostors.length} pairs (needs ${Math.ceil(3 / fmr)})`);
      } else {
        console.log(
          `  FMR ${fmr.toExponential(0)} on ${name} (${impostors.length} pairs): threshold ${f3(t)}  measured FMR ${pct(rateAtOrAbove(impostors, t))}  FNMR given-A ${pct(rateBelow(p.genuineGiven, t))}, all genuine ${pct(rateBelow(p.genuineAll, t))}`,
        );
      }
    }
  }

  console.log("\nCurrent settings");
  const floor = CURRENT.face_match - CURRENT.face_match_review_margin;
  for (const [name, t] of [
    ["face_match threshold", CURRENT.face_match],
    ["face_match review floor (threshold - margin)", floor],
    ["face_uniqueness threshold", CURRENT.face_uniqueness],
    ["liveness same-person threshold", CURRENT.liveness_same_person],
  ] as const) {
    console.log(
      `  ${name.padEnd(46)} ${f3(t)}  FMR certain ${pct(rateAtOrAbove(p.impostorCertain, t))}, visual ${pct(rateAtOrAbove(p.impostorVisual, t))}  FNMR given-A ${pct(rateBelow(p.genuineGiven, t))}, all genuine ${pct(rateBelow(p.genuineAll, t))}`,
    );
  }

  console.log("\nSweep        FMR certain  FMR visual  FNMR given-A  FNMR all genuine");
  for (let t = 0.45; t <= 0.801; t += 0.025) {
    console.log(
      `  ${f3(t)}      ${pct(rateAtOrAbove(p.impostorCertain, t)).padStart(6)}      ${pct(rateAtOrAbove(p.impostorVisual, t)).padStart(6)}      ${pct(rateBelow(p.genuineGiven, t)).padStart(6)}        ${pct(rateBelow(p.genuineAll, t)).padStart(6)}`,
    );
  }

  console.log("\nHighest impostor pairs (look at them: the visual ones may be one person)");
  for (const x of p.topImpostors) console.log(`  ${f3(x.s)}  ${x.a} vs ${x.b}${x.certain ? "  (certain)" : ""}`);

  // Recommendation: auto-pass where no certain impostor reaches (observed FMR 0,
  // 95% bound 3/N), review down to the FMR 1e-2 point, uniqueness at least as
  // strict as the auto-pass and above 99.9% of all labelled impostors.
  const maxCertain = Math.max(...p.impostorCertain);
  const pass = Math.ceil((maxCertain + 1e-9) * 100) / 100;
  const reviewFloor = recommended["certain impostors@0.01"] ?? null;
  const uniqueness = Math.max(pass, recommended["visual impostors@0.001"] ?? pass);
  console.log("\nRecommendation (from these pairs; see the caveats above)");
  console.log(
    `  face_match.threshold ${pass.toFixed(2)}: no certain impostor at or above it (0 of ${p.impostorCertain.length}, FMR 95% bound ${(3 / p.impostorCertain.length).toExponential(1)}); FNMR given-A ${pct(rateBelow(p.genuineGiven, pass))}, all genuine ${pct(rateBelow(p.genuineAll, pass))}`,
  );
  if (reviewFloor !== null && reviewFloor < pass) {
    const floor = Math.floor(reviewFloor * 100) / 100;
    console.log(`  face_match.review_margin ${(pass - floor).toFixed(2)}: review from ${floor.toFixed(2)} (FMR ${pct(rateAtOrAbove(p.impostorCertain, floor))} certain), fail below (FNMR given-A ${pct(rateBelow(p.genuineGiven, floor))}, all genuine ${pct(rateBelow(p.genuineAll, floor))})`);
  }
  console.log(
    `  face_uniqueness.threshold ${(Math.ceil(uniqueness * 100) / 100).toFixed(2)}: a 1:N search multiplies the FMR by the gallery size, and FMR below 1e-3 cannot be measured here: see the stranger tail below`,
  );
  console.log("\n1:N false matches: the stranger tail (a search among N faces expects N x P(stranger >= t) false matches)");
  const certainFit = fitStrangerTail(p.impostorCertain);
  printTail("certain impostors", p.impostorCertain, certainFit, CURRENT.face_uniqueness, p.genuineGiven);
  printTail("visual impostors (may hold unrecognised same-person pairs: pessimistic)", p.impostorVisual, fitStrangerTail(p.impostorVisual), CURRENT.face_uniqueness, p.genuineGiven);
  if (process.argv.includes("--write-distribution")) {
    const sorted = [...p.impostorCertain].sort((a, b) => a - b);
    const distribution = {
      source: "npm run eval:faces -- --write-distribution: certain impostor pairs (@vladmandic/human faceres)",
      pairs: certainFit.pairs,
      mean: round(certainFit.mean),
      sd: round(certainFit.sd),
      sd_upper_95: round(certainFit.sdUpper),
      p99: round(sorted[Math.floor(0.99 * (sorted.length - 1))]!),
      max: round(sorted.at(-1)!),
      mean_upper_95: round(certainFit.meanUpper),
      tail: { u: round(certainFit.u), share_above_u: round(certainFit.shareAbove), exponential_scale: round(certainFit.expScale), gpd_shape: round(certainFit.gpdShape), gpd_shape_90: certainFit.gpdShapeInterval.map(round) },
    };
    fs.writeFileSync(STRANGER_DISTRIBUTION_FILE, `${JSON.stringify(distribution, null, 2)}\n`);
    console.log(`  written to ${STRANGER_DISTRIBUTION_FILE}`);
  }
  console.log(`\n${faces.length} faces, ${p.genuineAll.length} genuine and ${p.impostorVisual.length} impostor pairs in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;

function printTail(name: string, similarities: number[], fit: TailFit, threshold: number, genuineGiven: number[]) {
  console.log(
    `  ${name}: ${fit.pairs} pairs, mean ${f3(fit.mean)}, sd ${f3(fit.sd)} (95% upper ${f3(fit.sdUpper)}); tail above p90 ${f3(fit.u)}: ${fit.exceedances} pairs, exponential scale ${f3(fit.expScale)}, generalised Pareto shape ${fit.gpdShape.toFixed(2)} (90% bootstrap ${fit.gpdShapeInterval.map((x) => x.toFixed(2)).join(" to ")})`,
  );
  console.log(`    tail check, pairs at or above: ${tailCheck(similarities, fit, [0.5, 0.55, 0.6, 0.65]).map((c) => `${c.t.toFixed(2)} observed ${c.observed}, normal ${c.expected.toFixed(1)}`).join("; ")}`);
  console.log(`    thresholds for fewer than 1 false match in 1,000 searches (used model): ${GALLERY_SIZES.map((n) => {
    const t = thresholdFor(fit.models[1]!, n, 1e-3);
    return `${n.toLocaleString("en")} faces ${t.toFixed(3)} (FNMR given-A ${pct(rateBelow(genuineGiven, t))})`;
  }).join(", ")}`);
  console.log(`    ${"model".padEnd(52)} ${"P(>= " + threshold.toFixed(2) + ")".padEnd(2)}  ${GALLERY_SIZES.map((n) => `false/search @${n.toLocaleString("en")}`.padStart(24)).join("")}  threshold for < 1e-3 @1M`);
  for (const model of fit.models) {
    const above = model.above(threshold);
    console.log(
      `    ${model.name.padEnd(52)} ${above.toExponential(1).padStart(9)}  ${GALLERY_SIZES.map((n) => (n * above).toPrecision(2).padStart(24)).join("")}  ${thresholdFor(model, 1_000_000, 1e-3).toFixed(3).padStart(24)}`,
    );
  }
}

try {
  await main();
} finally {
  await closeVisionPool();
}
