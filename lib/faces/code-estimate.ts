import { SEARCH_CODE_BITS, SEARCH_CODE_BYTES, rotatedTemplate } from "./search-code";

/**
 * The second look of the 1:N search: an estimate of a gallery face's cosine
 * similarity to the probe from the face's 128-byte search code and the
 * probe's *unquantised* rotated template (an asymmetric estimator: only the
 * gallery side is reduced to signs). For a unit probe q and a gallery face
 * x, both rotated, Σ q_i·sign(x_i) has mean ρ·Σ|x_i| ≈ ρ·sqrt(2d/π) and a
 * spread that does not depend on ρ, so
 *
 *   estimate = Σ q_i·sign(x_i) / sqrt(2d/π),   sd ≈ sqrt((π/2 - 1) / d) = 0.0236 at d = 1024
 *
 * against 0.032 for the Hamming distance of two codes at the threshold
 * (both codes signs). tests/unit/face-search.test.ts measures the spread
 * on uniform and on clustered (look-alike) templates.
 *
 * The sum runs a byte at a time through a table built once per search:
 * entry (j, b) is Σ over the 8 bits of byte value b of ±q_(8j+k), so a
 * code costs 128 look-ups (about 0.15 µs), cheap enough for every face the
 * Hamming radius lets through.
 */
export const ESTIMATE_SD = Math.sqrt((Math.PI / 2 - 1) / SEARCH_CODE_BITS);

/**
 * Standard deviations of the estimate's error below the threshold that a
 * face must reach to be re-scored exactly: a face exactly at the threshold
 * is passed over with probability about 2.3e-4 (one-sided normal tail at
 * 3.5 sd); one 0.02 above it, 3e-6. There is no cap on how many faces
 * qualify: a crowd of look-alikes costs time, never a true match.
 */
const RESCORE_MARGIN_SD = 3.5;

/** The estimate at or above which a face is re-scored exactly, for a threshold. */
export function rescoreFloor(threshold: number): number {
  return threshold - RESCORE_MARGIN_SD * ESTIMATE_SD;
}

export class SimilarityEstimator {
  private readonly table = new Float32Array(SEARCH_CODE_BYTES * 256);

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
