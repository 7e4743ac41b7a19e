import { SEARCH_CODE_BITS, SEARCH_CODE_BYTES, rotatedTemplate } from "./search-code";

/**
 * The second look of the 1:N search: an estimate of a gallery face's cosine
 * similarity to the probe from the face's 128-byte search code and the
 * probe's *unquantised* rotated template (an asymmetric estimator: only the
 * gallery side is reduced to signs). For a unit probe q and a unit gallery
 * face x, both rotated, write q = ρ·x + sqrt(1 - ρ²)·e with e ⟂ x; then
 *
 *   Σ q_i·sign(x_i) = ρ·Σ|x_i| + sqrt(1 - ρ²)·Σ e_i·sign(x_i)
 *
 * and estimate = Σ q_i·sign(x_i) / sqrt(2d/π), sqrt(2d/π) being the mean
 * of Σ|x_i|. Its error has two parts: Σ e_i·sign(x_i), mean 0 and variance
 * 1 - 2/π, and the spread of Σ|x_i| around its mean, variance 1 - 3/π for
 * a unit vector (the norm is fixed, which takes 1/π off the 1 - 2/π of
 * free Gaussian coordinates). So
 *
 *   sd(ρ) = sqrt(((1 - ρ²)·(π/2 - 1) + ρ²·(π - 3)/2) / d)
 *
 * 0.0182 at ρ = 0.68 for d = 1024, 0.0108 at 0.95 (0.032 for the Hamming
 * distance of two codes at 0.68: both sides signs).
 * tests/unit/face-search.test.ts measures the spread, within 15% either
 * way, on uniform and on look-alike templates. (Dividing by each face's
 * own Σ|x_i| instead, RaBitQ's correction, would take the second part out:
 * 0.0173 at 0.68, for a format change of every stored code.)
 *
 * The sum runs a byte at a time through a table built once per search:
 * entry (j, b) is Σ over the 8 bits of byte value b of ±q_(8j+k), so a
 * code costs 128 look-ups, cheap enough for every face the Hamming radius
 * lets through.
 */
export function estimateSd(similarity: number): number {
  const rho2 = Math.min(1, similarity * similarity);
  return Math.sqrt(((1 - rho2) * (Math.PI / 2 - 1) + (rho2 * (Math.PI - 3)) / 2) / SEARCH_CODE_BITS);
}

/**
 * Standard deviations of the estimate's error below the threshold that a
 * face must reach to be re-scored exactly: a face exactly at the threshold
 * is passed over with probability about 2.3e-4 (one-sided normal tail at
 * 3.5 sd); one 0.02 above it, about 1e-6. There is no cap on how many
 * faces qualify: a crowd of look-alikes costs time, never a true match.
 */
const RESCORE_MARGIN_SD = 3.5;

/** The estimate at or above which a face is re-scored exactly, for a threshold (0.616 at 0.68). */
export function rescoreFloor(threshold: number): number {
  return threshold - RESCORE_MARGIN_SD * estimateSd(threshold);
}

export class SimilarityEstimator {
  /** Entry (j, b), at 256·j + b: the estimate's share of code byte j when it is b (the WebAssembly kernel reads it too: lib/faces/hamming-scan.ts). */
  readonly table = new Float32Array(SEARCH_CODE_BYTES * 256);

  constructor(probe: ArrayLike<number>) {
    const rotated = rotatedTemplate(probe);
    let norm = 0;
    for (const v of rotated) norm += v * v;
    const scale = 1 / (Math.sqrt(norm) * Math.sqrt((2 * SEARCH_CODE_BITS) / Math.PI));
    for (let j = 0; j < SEARCH_CODE_BYTES; j++) {
      const row = j << 8;
      // Value 0 is every bit clear (every sign -1); setting bit k flips q_(8j+k) from - to +.
      let allMinus = 0;
      for (let k = 0; k < 8; k++) allMinus -= rotated[8 * j + k]! * scale;
      this.table[row] = allMinus;
      for (let b = 1; b < 256; b++) {
        const low = b & -b;
        this.table[row | b] = this.table[row | (b ^ low)]! + 2 * rotated[8 * j + 31 - Math.clz32(low)]! * scale;
      }
    }
  }

  /** The estimated similarity of the code stored at `bytes[offset .. offset + 128)`. */
  estimate(bytes: Uint8Array, offset: number): number {
    const table = this.table;
    let sum = 0;
    for (let j = 0; j < SEARCH_CODE_BYTES; j++) sum += table[(j << 8) | bytes[offset + j]!]!;
    return sum;
  }
}
