/**
 * Synthetic face templates for the 1:N search tests and benchmark: unit
 * vectors from a seeded generator (the same seed gives the same gallery),
 * and vectors at an exact cosine similarity to a given one (planted
 * duplicates above the threshold, look-alikes just under it).
 */
export const TEMPLATE_LENGTH = 1024;

export type Random = () => number;

/** sfc32 (Chris Doty-Humphrey's small fast counting generator), seeded through splitmix32: uniform in [0, 1). */
export function seededRandom(seed: number): Random {
  let x = seed >>> 0;
  const splitmix = () => {
    x = (x + 0x9e3779b9) >>> 0;
    let z = x;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix();
  let b = splitmix();
  let c = splitmix();
  let d = 1;
  const next = () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t;
  };
  for (let i = 0; i < 12; i++) next();
  return () => next() / 4294967296;
}

export function unit(v: Float64Array): Float64Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  return v.map((x) => x / norm);
}

export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/** A uniformly random direction. */
export function randomTemplate(random: Random): Float64Array {
  const v = new Float64Array(TEMPLATE_LENGTH);
  for (let i = 0; i < v.length; i += 2) {
    // Box-Muller: both normals of each pair of uniforms.
    const radius = Math.sqrt(-2 * Math.log(1 - random()));
    const angle = 2 * Math.PI * random();
    v[i] = radius * Math.cos(angle);
    v[i + 1] = radius * Math.sin(angle);
  }
  return unit(v);
}

/** A unit vector whose cosine similarity to the unit vector `base` is exactly `similarity`. */
export function templateAtSimilarity(base: ArrayLike<number>, similarity: number, random: Random): Float64Array {
  const noise = randomTemplate(random);
  const along = dot(noise, base);
  const orthogonal = unit(noise.map((x, i) => x - along * base[i]!));
  const side = Math.sqrt(1 - similarity * similarity);
  return orthogonal.map((x, i) => similarity * base[i]! + side * x);
}
