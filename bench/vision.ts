// Vision part of `npm run bench` (alone: `npm run bench:vision`): the check
// engine's inference in its worker pool (VISION_THREADS, default 1 on 2
// cores), on the committed fixtures and on camera-sized frames (960x720, the
// size the hosted page sends). Every figure is measured twice in the same run:
// the BASELINE is the same pool running human as shipped (TensorFlow.js's
// WASM backend, VISION_RUNTIME=wasm, its model graphs unrewritten,
// VISION_GRAPH_REWRITE=off), the CURRENT one as production runs it: the face
// models on the native ONNX Runtime (workers/native-inference.mjs). The
// ratio column is current / baseline.
// Meanwhile the main event loop's delay is sampled: inference runs in worker
// threads, the web server's loop must stay responsive.
import fs from "node:fs";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import sharp from "sharp";
import { analyseFaces, closeVisionPool, readFrontText, readPdf417, visionThreads, warmVision } from "../lib/vision/pool";

const fixtures = path.join(process.cwd(), "tests", "fixtures");
const read = (...p: string[]) => new Uint8Array(fs.readFileSync(path.join(fixtures, ...p)));

type Row = { name: string; n: number; p50: number; p99: number; perSecond: number; loopP99: number };
export type VisionRow = Row & { baseline: Row; threads: number };

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function measure(name: string, n: number, concurrency: number, op: () => Promise<unknown>): Promise<Row> {
  const times: number[] = [];
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        next++;
        const t = performance.now();
        await op();
        times.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  loop.disable();
  times.sort((a, b) => a - b);
  return { name, n, p50: percentile(times, 50), p99: percentile(times, 99), perSecond: n / elapsed, loopP99: loop.percentile(99) / 1e6 };
}

/** A frame as the hosted page sends it: 960x720 JPEG, the face about 40% of its width. */
async function cameraFrame(fixture: Uint8Array): Promise<Uint8Array> {
  const face = await sharp(fixture).resize(420, 420).toBuffer();
  const frame = await sharp({ create: { width: 960, height: 720, channels: 3, background: { r: 128, g: 118, b: 108 } } })
    .composite([{ input: face, left: 270, top: 120 }])
    .jpeg({ quality: 90 })
    .toBuffer();
  return new Uint8Array(frame);
}

async function pass(): Promise<Row[]> {
  await warmVision();
  const frame = read("faces", "a-left-right", "1.jpg");
  const burst = await Promise.all([1, 2, 3, 4, 5].map((i) => cameraFrame(read("faces", "a-left-right", `${i}.jpg`))));
  const licenceFront = read("documents", "licence-a-front.jpg");
  const licenceBack = read("documents", "licence-a-back.jpg");
  // What one session asks of the vision pool: the document (barcode, printed
  // front, portrait, in parallel), then the liveness burst (its best frame is
  // the selfie the face match compares: no further inference).
  const sessionVision = async () => {
    await Promise.all([readPdf417(licenceBack), readFrontText(licenceFront), analyseFaces(licenceFront)]);
    await Promise.all(burst.map((b) => analyseFaces(b)));
  };
  try {
    return [
      await measure("face analysis, 1 frame (320x320 fixture)", 30, 1, () => analyseFaces(frame)),
      await measure("face analysis, 1 camera frame (960x720)", 30, 1, () => analyseFaces(burst[0]!)),
      await measure("camera frames, 8 concurrent", 64, 8, () => analyseFaces(burst[0]!)),
      await measure("liveness burst (5 camera frames)", 10, 1, () => Promise.all(burst.map((b) => analyseFaces(b)))),
      await measure("PDF417 licence back", 20, 1, () => readPdf417(licenceBack)),
      await measure("session vision (document + burst)", 6, 1, sessionVision),
    ];
  } finally {
    await closeVisionPool();
  }
}

/** Runs `body` with environment variables set (each worker thread reads them when the pool starts it). */
async function withEnv<T>(vars: Record<string, string>, body: () => Promise<T>): Promise<T> {
  const previous = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return await body();
  } finally {
    for (const [k, v] of Object.entries(previous)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

export async function visionBench(): Promise<VisionRow[]> {
  const baseline = await withEnv({ VISION_RUNTIME: "wasm", VISION_GRAPH_REWRITE: "off" }, pass);
  const current = await pass();
  return current.map((row, i) => ({ ...row, baseline: baseline[i]!, threads: visionThreads() }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  void visionBench().then(printVision);
}

export function printVision(rows: VisionRow[]) {
  console.log(
    "operation".padEnd(42),
    "n".padStart(4),
    "p50 ms".padStart(8),
    "p99 ms".padStart(8),
    "per s".padStart(7),
    "loop p99".padStart(9),
    "baseline p50".padStart(13),
    "ratio".padStart(6),
  );
  for (const r of rows) {
    console.log(
      r.name.padEnd(42),
      String(r.n).padStart(4),
      r.p50.toFixed(0).padStart(8),
      r.p99.toFixed(0).padStart(8),
      r.perSecond.toFixed(1).padStart(7),
      r.loopP99.toFixed(1).padStart(9),
      r.baseline.p50.toFixed(0).padStart(13),
      (r.p50 / r.baseline.p50).toFixed(2).padStart(6),
    );
  }
  const concurrent = rows.find((r) => r.name.startsWith("camera frames"));
  const session = rows.find((r) => r.name.startsWith("session vision"));
  if (concurrent && session) {
    const threads = concurrent.threads;
    console.log(`\nthroughput: ${(concurrent.perSecond / threads).toFixed(1)} camera frames/s per vision thread (baseline ${(concurrent.baseline.perSecond / threads).toFixed(1)}); ${threads} thread(s)`);
    console.log(`capacity: about ${((60 * 1000) / session.p50).toFixed(0)} sessions' vision per minute per vision thread (document + 5-frame burst, ${session.p50.toFixed(0)} ms each)`);
  }
  console.log("targets: 1 frame <= 60 ms p50, burst <= 350 ms, session vision <= 1 s, event loop p99 < 20 ms");
}
