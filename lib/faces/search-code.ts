import { processSlot } from "@/lib/process-slots";
/**
 * The 1:N search code of a face template: 1,024 sign bits of a fixed random
 * rotation of the template, packed into 128 bytes (SimHash, Charikar 2002).
 *
 * Each bit is the side of a random hyperplane the template falls on; for two
 * templates at angle θ a bit differs with probability θ/π, so their Hamming
 * distance is about Binomial(1024, θ/π) whatever the distribution of faces.
 * That makes the candidate radius for a cosine threshold a calculation rather
 * than a tuning (`candidateRadius`). The rotation is the structured one of
 * FALCONN (Andoni et al., "Practical and Optimal LSH for Angular Distance",
 * 2015): three rounds of random signs then a Walsh-Hadamard transform,
 * O(d log d) instead of a dense 1024 x 1024 product (30 us instead of about
 * 1 ms a template, which is what lets a million-face gallery be coded in
 * seconds). Its hyperplanes are orthogonal, which makes the distance spread
 * no wider than the binomial's; tests/unit/face-search.test.ts measures it.
 *
 * The signs come from a seeded generator and never change, so stored codes
 * stay comparable with every new probe. Changing them takes a migration
 * that sets every `search_code` to NULL, and a one-time pass of the
 * migration runner that codes each sealed template again and seals the code
 * (as lib/faces/sealed-faces.ts sealStoredFaceTemplates does); meanwhile the
 * search index codes such faces from their templates as it loads them.
 */
export const TEMPLATE_DIMENSIONS = 1024;
export const SEARCH_CODE_BITS = TEMPLATE_DIMENSIONS;
export const SEARCH_CODE_BYTES = SEARCH_CODE_BITS / 8;
const ROTATION_SEED = 0x5eedface;
const ROTATION_ROUNDS = 3;

/**
 * Standard deviations of margin above the expected distance at the
 * threshold: a face exactly at the threshold falls outside the radius with
 * probability about 3e-7 (one-sided normal tail at 5 sd).
 */
const RADIUS_MARGIN_SD = 5;

const rotationSignsSlot = processSlot<Float64Array[]>("rotationSigns");

/** mulberry32: a small, well-distributed 32-bit generator, fixed forever for this scheme. */
function seededUniform(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The random +1/-1 diagonal of each round. */
function rotationSigns(): Float64Array[] {
  if (rotationSignsSlot.value) return rotationSignsSlot.value;
  const uniform = seededUniform(ROTATION_SEED);
  const rounds = Array.from({ length: ROTATION_ROUNDS }, () => {
    const signs = new Float64Array(TEMPLATE_DIMENSIONS);
    for (let i = 0; i < signs.length; i++) signs[i] = uniform() < 0.5 ? -1 : 1;
    return signs;
  });
  rotationSignsSlot.value = rounds;
  return rounds;
}

/** In-place unnormalised fast Walsh-Hadamard transform (length a power of two). */
function walshHadamard(v: Float64Array) {
  for (let h = 1; h < v.length; h <<= 1) {
    for (let i = 0; i < v.length; i += h << 1) {
      for (let j = i; j < i + h; j++) {
        const a = v[j]!;
        const b = v[j + h]!;
        v[j] = a + b;
        v[j + h] = a - b;
      }
    }
  }
}

/** The template after the fixed rotation, unnormalised (each round scales it by sqrt(1024)). */
export function rotatedTemplate(template: ArrayLike<number>): Float64Array {
  if (template.length !== TEMPLATE_DIMENSIONS) {
    throw new Error(`A face template has ${TEMPLATE_DIMENSIONS} values, not ${template.length}`);
  }
  const v = Float64Array.from(template);
  for (const signs of rotationSigns()) {
    for (let i = 0; i < v.length; i++) v[i]! *= signs[i]!;
    walshHadamard(v);
  }
  return v;
}

/** The 128-byte search code of a template (any length-`TEMPLATE_DIMENSIONS` vector; its norm does not matter). */
export function searchCode(template: ArrayLike<number>): Buffer {
  const v = rotatedTemplate(template);
  const code = Buffer.alloc(SEARCH_CODE_BYTES);
  for (let bit = 0; bit < SEARCH_CODE_BITS; bit++) if (v[bit]! >= 0) code[bit >> 3]! |= 1 << (bit & 7);
  return code;
}

/** Hamming distance of two codes (the reference the WASM scan is tested against). */
export function hammingDistance(a: Uint8Array, b: Uint8Array): number {
  let distance = 0;
  for (let i = 0; i < a.length; i++) {
    let x = a[i]! ^ b[i]!;
    while (x) {
      x &= x - 1;
      distance++;
    }
  }
  return distance;
}

/**
 * The largest Hamming distance at which a face with cosine similarity >=
 * `threshold` to the probe is still looked at: the expected distance at the
 * threshold, 1024 * acos(threshold) / π, plus RADIUS_MARGIN_SD standard
 * deviations of the binomial. At the uniqueness default 0.68 that is 339 of
 * 1024, while unrelated faces sit near 512.
 */
export function candidateRadius(threshold: number): number {
  const p = Math.acos(Math.min(1, Math.max(-1, threshold))) / Math.PI;
  const mean = SEARCH_CODE_BITS * p;
  const sd = Math.sqrt(SEARCH_CODE_BITS * p * (1 - p));
  return Math.min(SEARCH_CODE_BITS, Math.ceil(mean + RADIUS_MARGIN_SD * sd));
}
