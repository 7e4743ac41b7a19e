// Per-face image cues of a presentation attack, measured in the vision
// worker where the decoded pixels are (the verdict that weighs them is
// lib/liveness/presentation-attack.ts, pure and unit-tested):
//
// - moire: a face shown on a screen and filmed again carries the screen's
//   pixel grid, which the camera aliases into strong, narrow peaks in the
//   spatial spectrum of the skin; skin filmed directly has a smooth spectrum.
//   The score is the strongest high-frequency peak of the central face patch
//   over the median of its frequency ring, in natural-log units (0 = no peak).
//   Frequencies of JPEG's 8-pixel block grid are left out: every camera frame
//   has them.
// - glare: the share of the face box that is blown out to near white (a
//   screen's or a glossy print's reflection; skin under normal light keeps
//   small specular spots).
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const FFT = require("fft.js");

/** Mesh points kept for the flatness test (nose, eyes, mouth, chin, brow, cheeks): human's 468-point mesh indices. */
export const LANDMARK_INDICES = [1, 4, 6, 9, 10, 33, 61, 98, 133, 152, 168, 199, 234, 263, 291, 327, 362, 454];

/** Largest patch side analysed for moire (a power of two). */
const MAX_PATCH = 128;
const MIN_PATCH = 32;
/** Lowest frequency (cycles per pixel) where a peak counts: below it lie the face's own shapes. */
const MIN_FREQUENCY = 0.12;
/** A pixel counts as blown out when its darkest channel is at least this bright. */
const GLARE_LEVEL = 240;

const ffts = new Map();
function fftOf(n) {
  if (!ffts.has(n)) ffts.set(n, new FFT(n));
  return ffts.get(n);
}

/** Grey patch of side n centred on (cx, cy), clamped to the image, mean removed, Hann-windowed. */
function greyPatch(rgb, width, height, cx, cy, n) {
  const left = Math.min(Math.max(0, Math.round(cx - n / 2)), width - n);
  const top = Math.min(Math.max(0, Math.round(cy - n / 2)), height - n);
  const patch = new Float64Array(n * n);
  let sum = 0;
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const i = ((top + y) * width + left + x) * 3;
      const grey = 0.299 * rgb[i] + 0.587 * rgb[i + 1] + 0.114 * rgb[i + 2];
      patch[y * n + x] = grey;
      sum += grey;
    }
  }
  const mean = sum / (n * n);
  for (let y = 0; y < n; y++) {
    const wy = 0.5 - 0.5 * Math.cos((2 * Math.PI * y) / (n - 1));
    for (let x = 0; x < n; x++) {
      const wx = 0.5 - 0.5 * Math.cos((2 * Math.PI * x) / (n - 1));
      patch[y * n + x] = (patch[y * n + x] - mean) * wx * wy;
    }
  }
  return patch;
}

/** Log-magnitude spectrum (n x n, row v, column u, DC at 0) of a real patch. */
function logSpectrum(patch, n) {
  const fft = fftOf(n);
  const rows = new Float64Array(2 * n * n); // complex, row by row
  const input = fft.createComplexArray();
  const output = fft.createComplexArray();
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      input[2 * x] = patch[y * n + x];
      input[2 * x + 1] = 0;
    }
    fft.transform(output, input);
    rows.set(output, 2 * n * y);
  }
  const spectrum = new Float64Array(n * n);
  for (let u = 0; u < n; u++) {
    for (let y = 0; y < n; y++) {
      input[2 * y] = rows[2 * n * y + 2 * u];
      input[2 * y + 1] = rows[2 * n * y + 2 * u + 1];
    }
    fft.transform(output, input);
    for (let v = 0; v < n; v++) spectrum[v * n + u] = Math.log(1e-9 + Math.hypot(output[2 * v], output[2 * v + 1]));
  }
  return spectrum;
}

function median(values) {
  const sorted = Float64Array.from(values).sort();
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0;
}

/** Strongest narrow high-frequency peak of the face's central patch, or null when the face is too small. */
export function moireScore(rgb, width, height, box) {
  const [bx, by, bw, bh] = box;
  const side = Math.floor(0.6 * Math.min(bw, bh, width, height));
  let n = MIN_PATCH;
  while (n * 2 <= Math.min(side, MAX_PATCH)) n *= 2;
  if (side < MIN_PATCH) return null;
  const spectrum = logSpectrum(greyPatch(rgb, width, height, bx + bw / 2, by + bh / 2, n), n);
  const grid = n / 8; // JPEG block frequencies: multiples of 1/8 cycle per pixel
  const nearGrid = (k) => {
    const r = Math.abs(k) % grid;
    return r <= 1 || r >= grid - 1;
  };
  const rings = new Map();
  const bins = [];
  // Half the plane is enough: the spectrum of a real image is symmetric.
  for (let v = 0; v <= n / 2; v++) {
    for (let uu = -n / 2 + 1; uu <= n / 2; uu++) {
      const radius = Math.hypot(uu, v);
      if (radius / n < MIN_FREQUENCY || radius > n / 2) continue;
      if (nearGrid(uu) || nearGrid(v)) continue;
      const ring = Math.round(radius);
      const value = spectrum[v * n + ((uu + n) % n)];
      if (!rings.has(ring)) rings.set(ring, []);
      rings.get(ring).push(value);
      bins.push([ring, value]);
    }
  }
  const medians = new Map([...rings].map(([ring, values]) => [ring, median(values)]));
  let best = 0;
  for (const [ring, value] of bins) best = Math.max(best, value - medians.get(ring));
  return Math.round(best * 1000) / 1000;
}

/** Share (0..1) of the face box's pixels that are blown out to near white. */
export function glareShare(rgb, width, height, box) {
  const [bx, by, bw, bh] = box;
  const left = Math.max(0, Math.floor(bx));
  const top = Math.max(0, Math.floor(by));
  const right = Math.min(width, Math.ceil(bx + bw));
  const bottom = Math.min(height, Math.ceil(by + bh));
  let blown = 0;
  let total = 0;
  for (let y = top; y < bottom; y++) {
    for (let x = left; x < right; x++) {
      const i = (y * width + x) * 3;
      total++;
      if (Math.min(rgb[i], rgb[i + 1], rgb[i + 2]) >= GLARE_LEVEL) blown++;
    }
  }
  return total ? Math.round((blown / total) * 1000) / 1000 : null;
}

/** The flatness test's mesh points of one face, [x, y] in image pixels (null without a mesh). */
export function keyLandmarks(mesh) {
  if (!Array.isArray(mesh) || mesh.length < 468) return null;
  return LANDMARK_INDICES.map((i) => [Math.round(mesh[i][0] * 10) / 10, Math.round(mesh[i][1] * 10) / 10]);
}
