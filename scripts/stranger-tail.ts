/**
 * The tail of the stranger (impostor) similarity distribution, for the 1:N
 * search: how often a stranger scores at or above a threshold, which a
 * gallery of N faces multiplies by N. A few thousand pairs pin down the
 * body of the distribution, not the one-in-a-million tail a million-face
 * gallery reaches, so:
 *   - the normal fit (mean and sd of every pair) is checked against the
 *     pairs' own upper tail (`tailCheck`: observed against expected counts
 *     above high cut-offs);
 *   - the tail's shape is estimated with a generalised Pareto fit to the
 *     exceedances over the 90th percentile (probability-weighted moments,
 *     Hosking & Wallis 1987) with a bootstrap interval: a negative shape is
 *     a tail lighter than exponential, as a normal's is over this range;
 *   - the figure used is the normal with its mean and sd at their one-sided
 *     95% upper bounds; the exponential tail fitted above the 90th
 *     percentile is printed as a ceiling (far heavier than the data: it
 *     predicts pairs above 0.6 that do not occur).
 */
import { seededRandom } from "../tests/support/synthetic-faces";

export type TailModel = { name: string; above: (t: number) => number };

/** One-sided upper standard normal quantile at 95%. */
const Z95 = 1.6448536;

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

function sampleSd(xs: number[]): number {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1));
}

/** Complementary error function (Numerical Recipes erfcc: relative error < 1.2e-7 everywhere, tails included). */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

const normalAbove = (t: number, m: number, sd: number) => 0.5 * erfc((t - m) / (sd * Math.SQRT2));

/** Chi-square quantile (Wilson-Hilferty; ample for 2k >= 100 degrees of freedom). */
function chiSquareQuantile(dof: number, z: number): number {
  const a = 2 / (9 * dof);
  return dof * (1 - a + z * Math.sqrt(a)) ** 3;
}

/** Quantile by linear interpolation of the sorted values. */
export function quantile(sorted: number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** Generalised Pareto shape and scale of exceedances by probability-weighted moments. */
function gpdPwm(exceedances: number[]): { shape: number; scale: number } {
  const y = [...exceedances].sort((a, b) => a - b);
  const n = y.length;
  const a0 = mean(y);
  const a1 = y.reduce((s, v, i) => s + (1 - (i + 1 - 0.35) / n) * v, 0) / n;
  const k = a0 / (a0 - 2 * a1) - 2; // Hosking's k = -shape
  return { shape: -k, scale: (2 * a0 * a1) / (a0 - 2 * a1) };
}

export type TailFit = {
  pairs: number;
  mean: number;
  sd: number;
  /** One-sided 95% upper bound of the standard deviation (chi-square). */
  sdUpper: number;
  /** The tail's start (90th percentile) and the share of pairs above it. */
  u: number;
  shareAbove: number;
  exceedances: number;
  /** One-sided 95% upper bound of the mean. */
  meanUpper: number;
  /** Exponential tail scale above u. */
  expScale: number;
  /** Generalised Pareto by PWM, with a 90% bootstrap interval for the shape. */
  gpdShape: number;
  gpdScale: number;
  gpdShapeInterval: [number, number];
  models: TailModel[];
};

export function fitStrangerTail(similarities: number[]): TailFit {
  const sorted = [...similarities].sort((a, b) => a - b);
  const n = sorted.length;
  const m = mean(sorted);
  const sd = sampleSd(sorted);
  const sdUpper = sd * Math.sqrt((n - 1) / chiSquareQuantile(n - 1, -Z95));
  const u = quantile(sorted, 0.9);
  const y = sorted.filter((s) => s > u).map((s) => s - u);
  const k = y.length;
  const shareAbove = k / n;
  const expScale = mean(y);
  const gpd = gpdPwm(y);
  const random = seededRandom(32); // seeded: the report is the same on every run
  const shapes = Array.from({ length: 1000 }, () => gpdPwm(Array.from({ length: k }, () => y[Math.floor(random() * k)]!)).shape).sort((a, b) => a - b);
  const gpdShapeInterval: [number, number] = [quantile(shapes, 0.05), quantile(shapes, 0.95)];
  const meanUpper = m + (Z95 * sd) / Math.sqrt(n);
  const models: TailModel[] = [
    { name: "normal", above: (t) => normalAbove(t, m, sd) },
    { name: "normal, mean and sd at 95% upper bounds (used)", above: (t) => normalAbove(t, meanUpper, sdUpper) },
    // Ceiling: an exponential tail is heavier than any generalised Pareto tail of negative shape.
    { name: "exponential tail above p90 (ceiling)", above: (t) => (t <= u ? normalAbove(t, m, sd) : shareAbove * Math.exp(-(t - u) / expScale)) },
  ];
  return { pairs: n, mean: m, sd, sdUpper, meanUpper, u, shareAbove, exceedances: k, expScale, gpdShape: gpd.shape, gpdScale: gpd.scale, gpdShapeInterval, models };
}

/** The lowest threshold (to 0.001) at which `model` expects fewer than `falseMatches` strangers per search among `gallery` faces. */
export function thresholdFor(model: TailModel, gallery: number, falseMatches: number): number {
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (gallery * model.above(mid) < falseMatches) hi = mid;
    else lo = mid;
  }
  return Math.ceil(hi * 1000) / 1000;
}

/** Pairs at or above each cut-off: observed, and expected under the normal fit. */
export function tailCheck(similarities: number[], fit: TailFit, cutoffs: number[]) {
  return cutoffs.map((t) => ({ t, observed: similarities.filter((s) => s >= t).length, expected: similarities.length * fit.models[0]!.above(t) }));
}
