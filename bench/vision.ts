// Vision part of `npm run bench`: the check engine's inference in its worker
// pool (VISION_THREADS, default 1 on 2 cores), on the committed fixtures:
// latency of each operation, throughput with concurrent requests, and how
// long the main event loop stalls meanwhile (it must stay responsive: the
// inference runs in worker threads).
import fs from "node:fs";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { analyseFaces, closeVisionPool, readMrz, readPdf417, warmVision } from "../lib/vision/pool";

const fixtures = path.join(process.cwd(), "tests", "fixtures");
const read = (...p: string[]) => new Uint8Array(fs.readFileSync(path.join(fixtures, ...p)));

type Row = { name: string; n: number; p50: number; p99: number; perSecond: number; loopP99: number };

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

export async function visionBench(): Promise<Row[]> {
  await warmVision();
  const frame = read("faces", "a-left-right", "1.jpg");
  const licenceBack = read("documents", "licence-a-back.jpg");
  const passport = read("documents", "passport-a.jpg");
  await Promise.all([readPdf417(licenceBack), readMrz(passport)]); // load zxing and tesseract
  const burst = [1, 2, 3, 4, 5].map((i) => read("faces", "a-left-right", `${i}.jpg`));
  try {
    return [
      await measure("face analysis, 1 frame", 30, 1, () => analyseFaces(frame)),
      await measure("face analysis, 8 concurrent frames", 64, 8, () => analyseFaces(frame)),
      await measure("liveness burst (5 frames)", 10, 1, () => Promise.all(burst.map((b) => analyseFaces(b)))),
      await measure("PDF417 licence back", 20, 1, () => readPdf417(licenceBack)),
      await measure("MRZ passport page (OCR-B)", 10, 1, () => readMrz(passport)),
    ];
  } finally {
    await closeVisionPool();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  void visionBench().then(printVision);
}

export function printVision(rows: Row[]) {
  console.log("operation".padEnd(40), "n".padStart(4), "p50 ms".padStart(8), "p99 ms".padStart(8), "per s".padStart(7), "loop p99 ms".padStart(12));
  for (const r of rows) {
    console.log(r.name.padEnd(40), String(r.n).padStart(4), r.p50.toFixed(0).padStart(8), r.p99.toFixed(0).padStart(8), r.perSecond.toFixed(1).padStart(7), r.loopP99.toFixed(1).padStart(12));
  }
  console.log("target: the event loop stays responsive during inference (loop p99 well under 50 ms)");
}
