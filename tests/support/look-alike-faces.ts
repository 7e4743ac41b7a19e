import { dot, randomTemplate, TEMPLATE_LENGTH, unit, type Random } from "./synthetic-faces";

/**
 * Synthetic face templates whose strangers look alike as much as the real
 * model's do. The face model of this project does not spread faces over
 * the sphere (where strangers sit near cosine 0): `npm run eval:faces`
 * measures strangers at cosine 0.375 on average, sd 0.067
 * (tests/fixtures/faces/stranger-similarity.json). So every face here is
 *
 *   x = sqrt(μ)·m + sqrt(1 - μ)·v
 *
 * with m one direction shared by every face (what all faces have in
 * common) and v a random unit vector of a K-dimensional subspace
 * orthogonal to m (what tells people apart). Two strangers then score
 * μ + (1 - μ)·(v·v'), whose sd is (1 - μ)/sqrt(K): K is chosen to give the
 * measured sd. Faces related to a given one (the same person again, a
 * look-alike) are drawn inside the model too, at an exact similarity, so
 * they look at the crowd as the person does.
 */
export class LookAlikeFaces {
  readonly dimensions: number;
  private readonly shared: Float64Array;
  private readonly basis: Float64Array[];

  constructor(
    readonly mean: number,
    readonly sd: number,
    private readonly random: Random,
  ) {
    this.dimensions = Math.max(2, Math.round(((1 - mean) / sd) ** 2));
    // Gram-Schmidt on random directions: the shared one first, then the K-dimensional subspace.
    const vectors: Float64Array[] = [];
    for (let k = 0; k <= this.dimensions; k++) {
      const v = randomTemplate(random);
      for (const u of vectors) {
        const along = dot(v, u);
        for (let i = 0; i < v.length; i++) v[i]! -= along * u[i]!;
      }
      vectors.push(unit(v));
    }
    this.shared = vectors[0]!;
    this.basis = vectors.slice(1);
  }

  /** A new person. */
  face(): Float64Array {
    return this.compose(this.individual());
  }

  /** Another face in the model with cosine similarity exactly `similarity` (>= μ) to `of` (a face of this model). */
  related(of: Float64Array, similarity: number): Float64Array {
    const along = Math.sqrt(this.mean);
    const side = Math.sqrt(1 - this.mean);
    const v = of.map((x, i) => (x - along * this.shared[i]!) / side);
    const fresh = this.individual();
    const overlap = dot(fresh, v);
    const w = unit(fresh.map((x, i) => x - overlap * v[i]!));
    const a = (similarity - this.mean) / (1 - this.mean);
    const b = Math.sqrt(Math.max(0, 1 - a * a));
    return this.compose(v.map((x, i) => a * x + b * w[i]!));
  }

  /** A random unit vector of the K-dimensional subspace. */
  private individual(): Float64Array {
    const v = new Float64Array(TEMPLATE_LENGTH);
    let norm = 0;
    const g = Array.from({ length: this.dimensions }, () => {
      const x = Math.sqrt(-2 * Math.log(1 - this.random())) * Math.cos(2 * Math.PI * this.random());
      norm += x * x;
      return x;
    });
    norm = Math.sqrt(norm);
    this.basis.forEach((b, k) => {
      const c = g[k]! / norm;
      for (let i = 0; i < v.length; i++) v[i]! += c * b[i]!;
    });
    return v;
  }

  private compose(v: ArrayLike<number>): Float64Array {
    const along = Math.sqrt(this.mean);
    const side = Math.sqrt(1 - this.mean);
    return Float64Array.from(this.shared, (m, i) => along * m + side * v[i]!);
  }
}

/** The stranger distribution `npm run eval:faces -- --write-distribution` measured on this model's faces. */
export async function measuredStrangers(): Promise<{ mean: number; sd: number; pairs: number }> {
  const { readFile } = await import("node:fs/promises");
  const path = await import("node:path");
  const file = path.join(import.meta.dirname, "..", "fixtures", "faces", "stranger-similarity.json");
  return JSON.parse(await readFile(file, "utf8")) as { mean: number; sd: number; pairs: number };
}
