import os from "node:os";
import path from "node:path";
import { Piscina } from "piscina";

/**
 * The vision worker pool: face inference runs in worker threads
 * (workers/vision-worker.mjs) so it never blocks the event loop. One pool
 * per process, kept on globalThis (Next evaluates modules more than once).
 * VISION_THREADS sets its size (default: 1 on 2 cores, else cores - 1, max 4).
 */
export type FaceAnalysis = {
  faces: Array<{
    box: [number, number, number, number];
    score: number;
    box_score: number;
    face_score: number;
    embedding: number[] | null;
    rotation: { yaw: number; pitch: number; roll: number } | null;
    ear: { left: number | null; right: number | null };
    antispoof: number | null;
    live: number | null;
  }>;
  width: number;
  height: number;
  ms: number;
  model: string;
};

type TaskResult<T> = { ok: true; value: T } | { ok: false; error: string };

const globalForPool = globalThis as unknown as { __svcVisionPool?: Piscina };

function threads(): number {
  const configured = Number(process.env.VISION_THREADS);
  if (Number.isInteger(configured) && configured > 0) return configured;
  return Math.max(1, Math.min(4, os.cpus().length - 1));
}

export function visionPool(): Piscina {
  globalForPool.__svcVisionPool ??= new Piscina({
    filename: path.join(/* turbopackIgnore: true */ process.cwd(), "workers", "vision-worker.mjs"),
    minThreads: threads(),
    maxThreads: threads(),
    idleTimeout: Number.POSITIVE_INFINITY,
  });
  return globalForPool.__svcVisionPool;
}

export class VisionUnavailableError extends Error {}

async function run<T>(task: Record<string, unknown>, transfer?: ArrayBuffer[]): Promise<T> {
  const result = (await visionPool().run(task, { transferList: transfer })) as TaskResult<T>;
  if (!result.ok) throw new VisionUnavailableError(result.error);
  return result.value;
}

/** Faces in one image (JPEG/PNG/WebP bytes), with embeddings, head pose and eye openness. */
export function analyseFaces(image: Uint8Array): Promise<FaceAnalysis> {
  const copy = image.slice().buffer as ArrayBuffer;
  return run<FaceAnalysis>({ op: "faces", image: copy }, [copy]);
}

/** Loads the models (call at start-up so the first request is warm). */
export function warmVision(): Promise<{ model: string }> {
  return run({ op: "ping" });
}

export async function closeVisionPool() {
  const pool = globalForPool.__svcVisionPool;
  globalForPool.__svcVisionPool = undefined;
  await pool?.destroy();
}

/** Cosine similarity of two embeddings. */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}
