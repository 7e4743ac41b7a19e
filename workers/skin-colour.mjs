// The colour of a face's skin in one frame, for the colour challenge
// (lib/liveness/colour-response.ts judges it; measured here in the vision
// worker where the decoded pixels are): the mean LINEAR-light red, green
// and blue of the inner face (cheeks, nose, mouth: the middle of the face
// box, away from hair, background and the box's edges), leaving out clipped
// pixels (no colour information) and deep shadows (mostly noise).

/** The inner face, as fractions of the face box (x from the left, y from the top). */
export const INNER_FACE = { left: 0.25, right: 0.75, top: 0.4, bottom: 0.85 };
/** A pixel with any channel at or above this 8-bit value is clipped. */
const CLIPPED = 250;
/** A pixel darker than this linear luminance is shadow. */
const SHADOW = 0.005;
/** Fewer usable pixels than this: no measurement. */
const MIN_PIXELS = 64;

const LINEAR = Array.from({ length: 256 }, (_, v) => {
  const s = v / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
});

/**
 * Mean linear [r, g, b] (0-1) of the inner face of `box` ([x, y, w, h] in
 * pixels) in an RGB raster (3 bytes per pixel), or null when too few usable
 * pixels.
 */
export function skinColour(rgb, width, height, box) {
  const [bx, by, bw, bh] = box;
  const x0 = Math.max(0, Math.round(bx + INNER_FACE.left * bw));
  const x1 = Math.min(width, Math.round(bx + INNER_FACE.right * bw));
  const y0 = Math.max(0, Math.round(by + INNER_FACE.top * bh));
  const y1 = Math.min(height, Math.round(by + INNER_FACE.bottom * bh));
  let r = 0;
  let g = 0;
  let b = 0;
  let n = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * width + x) * 3;
      if (rgb[i] >= CLIPPED || rgb[i + 1] >= CLIPPED || rgb[i + 2] >= CLIPPED) continue;
      const lr = LINEAR[rgb[i]];
      const lg = LINEAR[rgb[i + 1]];
      const lb = LINEAR[rgb[i + 2]];
      if (0.2126 * lr + 0.7152 * lg + 0.0722 * lb < SHADOW) continue;
      r += lr;
      g += lg;
      b += lb;
      n++;
    }
  }
  return n < MIN_PIXELS ? null : [r / n, g / n, b / n];
}
