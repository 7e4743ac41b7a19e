/**
 * Is a turning face a flat picture? A head is not flat: when it turns, the
 * nose moves across the cheeks and the far cheek disappears behind it, so
 * the mesh points of the turned face are NOT an affine image of the frontal
 * face's points. A printed photo or a screen tilted to fake the turn is a
 * plane, and a plane seen under a small field of view moves by an affine
 * map (perspective adds well under 1% across a face). The measure is the RMS
 * residual of the best affine fit from the baseline frame's points to the
 * turned frame's points, in units of the baseline's eye distance.
 */
export type Point = readonly [number, number];

/** Indices, within workers/presentation-cues.mjs LANDMARK_INDICES, of the outer eye corners (mesh 33 and 263). */
const OUTER_EYE = { right: 5, left: 13 } as const;

/** Solves the 3x3 system m x = b by Gaussian elimination with partial pivoting; null when singular. */
function solve3(m: number[][], b: number[]): number[] | null {
  const a = m.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < 3; col++) {
    let pivot = col;
    for (let r = col + 1; r < 3; r++) if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
    if (Math.abs(a[pivot]![col]!) < 1e-9) return null;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    for (let r = 0; r < 3; r++) {
      if (r === col) continue;
      const f = a[r]![col]! / a[col]![col]!;
      for (let c = col; c < 4; c++) a[r]![c]! -= f * a[col]![c]!;
    }
  }
  return [0, 1, 2].map((i) => a[i]![3]! / a[i]![i]!);
}

/**
 * RMS residual of the least-squares affine map from `from` to `to`, over the
 * eye distance of `from`; null when the points cannot be compared.
 */
export function affineResidual(from: readonly Point[], to: readonly Point[]): number | null {
  if (from.length !== to.length || from.length < 6) return null;
  const eyes = Math.hypot(from[OUTER_EYE.left]![0] - from[OUTER_EYE.right]![0], from[OUTER_EYE.left]![1] - from[OUTER_EYE.right]![1]);
  if (!(eyes > 0)) return null;
  // Normal equations of [x y 1] a = x' and [x y 1] b = y'.
  const xtx = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  const xtu = [0, 0, 0];
  const xtv = [0, 0, 0];
  from.forEach(([x, y], i) => {
    const row = [x, y, 1];
    for (let r = 0; r < 3; r++) {
      for (let c = 0; c < 3; c++) xtx[r]![c]! += row[r]! * row[c]!;
      xtu[r]! += row[r]! * to[i]![0];
      xtv[r]! += row[r]! * to[i]![1];
    }
  });
  const a = solve3(xtx, xtu);
  const b = solve3(xtx, xtv);
  if (!a || !b) return null;
  let sum = 0;
  from.forEach(([x, y], i) => {
    const dx = a[0]! * x + a[1]! * y + a[2]! - to[i]![0];
    const dy = b[0]! * x + b[1]! * y + b[2]! - to[i]![1];
    sum += dx * dx + dy * dy;
  });
  return Math.sqrt(sum / from.length) / eyes;
}
