import os from "node:os";
import path from "node:path";
import { Piscina } from "piscina";
import { ApiError } from "@/lib/http/api-error";
import { processSlot } from "@/lib/process-slots";

/**
 * The vision worker pool: face inference runs in worker threads
 * (workers/vision-worker.mjs) so it never blocks the event loop. One pool
 * per process, kept in a process slot (lib/process-slots.ts: Next evaluates modules more than once).
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
    /** Mesh points for the flatness test ([x, y] in pixels, workers/presentation-cues.mjs LANDMARK_INDICES), null without a mesh. */
    landmarks: Array<[number, number]> | null;
    /** Mouth shape for the smile action (workers/vision-worker.mjs `mouthShape`): width and corner lift over the eye distance; null without a mesh. */
    mouth?: { width: number; lift: number } | null;
    /**
     * Image cues of a presentation attack (workers/presentation-cues.mjs):
     * `moire`, the strongest narrow high-frequency
     * peak of the skin's spectrum (log units, null when the face is too
     * small), and `glare`, the share of the face box blown out to white.
     */
    texture: { moire: number | null; glare: number | null } | null;
    /** Mean linear-light [r, g, b] of the inner face (workers/skin-colour.mjs), for the colour challenge; null when too few usable pixels. */
    skin_rgb?: [number, number, number] | null;
  }>;
  width: number;
  height: number;
  ms: number;
  model: string;
};

/** A task's answer (workers/task-error.mjs): `bad_input` when the image did not decode. */
type TaskResult<T> = { ok: true; value: T } | { ok: false; error: string; bad_input?: boolean };

const visionPoolSlot = processSlot<Piscina>("visionPool");

/** Size of the vision pool: VISION_THREADS, else 1 on 2 cores, cores - 1 up to 4 on more. */
export function visionThreads(): number {
  const configured = Number(process.env.VISION_THREADS);
  if (Number.isInteger(configured) && configured > 0) return configured;
  return Math.max(1, Math.min(4, os.cpus().length - 1));
}

export function visionPool(): Piscina {
  visionPoolSlot.value ??= new Piscina({
    filename: path.join(/* turbopackIgnore: true */ process.cwd(), "workers", "vision-worker.mjs"),
    minThreads: visionThreads(),
    maxThreads: visionThreads(),
    idleTimeout: Number.POSITIVE_INFINITY,
  });
  return visionPoolSlot.value;
}

export class VisionUnavailableError extends Error {}

/**
 * First come, first served in front of piscina: at most one task per thread
 * is handed to the pool, the rest wait here in arrival order. Piscina 5's
 * own queue let later tasks overtake earlier ones (measured: 24 frames
 * queued at once finished in the order 0, 1, 3, 5, ..., 23, 4, 8, ..., 2,
 * ...), so one person's burst could wait behind everyone who came after.
 */
const visionGateSlot = processSlot<{ running: number; waiting: Array<() => void> }>("visionGate");

async function takeTurn(): Promise<void> {
  const gate = (visionGateSlot.value ??= { running: 0, waiting: [] });
  if (gate.running < visionThreads()) {
    gate.running++;
    return;
  }
  await new Promise<void>((resolve) => gate.waiting.push(resolve));
}

function endTurn() {
  const gate = visionGateSlot.value!;
  const next = gate.waiting.shift();
  if (next) next(); // the turn passes on; `running` stays
  else gate.running--;
}

/**
 * A copy of the image's bytes in an ArrayBuffer of their own, to transfer to
 * the worker. Not `image.slice()`: on a Node Buffer that is a view of the same
 * memory (often a pooled ArrayBuffer holding other data), and transferring it
 * would detach the caller's bytes and send the worker the whole pool.
 */
function transferableCopy(image: Uint8Array): ArrayBuffer {
  return new Uint8Array(image).buffer as ArrayBuffer;
}

async function run<T>(task: Record<string, unknown>, transfer?: ArrayBuffer[]): Promise<T> {
  await takeTurn();
  let result: TaskResult<T>;
  try {
    result = (await visionPool().run(task, { transferList: transfer })) as TaskResult<T>;
  } catch (err) {
    // The thread itself failed (its ONNX Runtime inference thread stopped, say: workers/onnx-sync-session.mjs) and piscina starts another: the engine's failure too.
    throw new VisionUnavailableError(err instanceof Error ? err.message : String(err));
  } finally {
    endTurn();
  }
  if (!result.ok) throw taskFailure(result.error, result.bad_input === true);
  return result.value;
}

/**
 * A failed task: an image that did not decode is the caller's bad input, 422
 * `invalid_image` (lib/images/inspect-image.ts refuses it first, naming the
 * field; this is the worker's own word), anything else the engine's failure.
 */
function taskFailure(error: string, badInput: boolean): Error {
  if (badInput) return new ApiError("invalid_image", { status: 422, message: "An image is damaged or cut short (it does not decode to the end); take or send it again" });
  return new VisionUnavailableError(error);
}

/** Faces in one image (JPEG/PNG/WebP bytes), with embeddings, head pose and eye openness. */
export function analyseFaces(image: Uint8Array): Promise<FaceAnalysis> {
  const copy = transferableCopy(image);
  return run<FaceAnalysis>({ op: "faces", image: copy }, [copy]);
}

/**
 * Loads the face models, the barcode reader and the OCR models in every
 * thread of the pool (call at start-up so no request pays for loading).
 */
export type VisionRuntime = {
  model: string;
  /** Where the face models run (workers/native-inference.mjs): "onnxruntime" when all run natively, "wasm" when none does, else "mixed" (`models` says which runs where). */
  runtime: "onnxruntime" | "wasm" | "mixed";
  /** The runtime of each face model (workers/human-face-models.mjs FACE_MODELS). */
  models: Record<"blazeface" | "facemesh" | "iris" | "faceres" | "antispoof" | "liveness", "onnxruntime" | "wasm">;
  /** How many times the answering thread has loaded the face models (1 unless a load failed; a bad image never reloads them). */
  loads: number;
};

export async function warmVision(): Promise<VisionRuntime> {
  const pings = await Promise.all(Array.from({ length: visionThreads() }, () => run<VisionRuntime>({ op: "ping" })));
  return pings[0]!;
}

export async function closeVisionPool() {
  const pool = visionPoolSlot.value;
  visionPoolSlot.value = undefined;
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

/** A PDF417 barcode read from an image (the back of a US/Canadian driving licence or ID card). */
export type Pdf417Reading = {
  /** Decoded text as is (`textMode: "Plain"`): AAMVA payloads keep their control characters. */
  text: string;
  format: string;
  /** Which preprocessing read it ("original", "grey-normalised-sharpened", "upscaled", ...). */
  variant: string;
  ms: number;
  model: string;
};

/** The machine-readable zone of a passport or ID card, as OCR read it (not yet parsed). */
export type MrzOcrReading = {
  format: "TD1" | "TD2" | "TD3";
  lines: string[];
  /** OCR confidence of the least confident MRZ line, 0..1. */
  confidence: number;
  /** Whether every check digit matched (the worker uses it to pick between preprocessings). */
  check_digits_valid: boolean;
  variant: string;
  ms: number;
  model: string;
};

/** The first PDF417 symbol in an image (JPEG/PNG/WebP bytes), or null when none is found. */
export function readPdf417(image: Uint8Array): Promise<Pdf417Reading | null> {
  const copy = transferableCopy(image);
  return run<Pdf417Reading | null>({ op: "pdf417", image: copy }, [copy]);
}

/** The MRZ lines of a passport data page or ID card (OCR-B model, offline), or null when none is found. */
export function readMrz(image: Uint8Array): Promise<MrzOcrReading | null> {
  const copy = transferableCopy(image);
  return run<MrzOcrReading | null>({ op: "mrz", image: copy }, [copy]);
}

/** The printed text of a card's front (English OCR model, offline), line by line. */
export type FrontTextReading = {
  lines: Array<{ text: string; confidence: number; words: Array<{ text: string; confidence: number }> }>;
  /** Which crop was read ("fields-region", or "whole" when that region gave nothing). */
  variant: string | null;
  ms: number;
  model: string;
};

/** OCR of the front of a driving licence or ID card (its visual zone), for the cross-check with its barcode or MRZ. */
export function readFrontText(image: Uint8Array): Promise<FrontTextReading> {
  const copy = transferableCopy(image);
  return run<FrontTextReading>({ op: "front_text", image: copy }, [copy]);
}
