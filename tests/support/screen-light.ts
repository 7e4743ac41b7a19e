import sharp from "sharp";
import { linearRgb, srgbToLinear } from "@/lib/liveness/colour-challenge";
// @ts-expect-error: a plain ES module of the vision worker, no types
import { skinColour } from "../../workers/skin-colour.mjs";

/**
 * A face lit by the page's coloured screen, for tests (README "Liveness: the
 * colour challenge"): what a camera would record of the test person while
 * the screen shows colour k during frame k.
 *
 * In linear light the face reflects the room's light plus the screen's:
 *   pixel = reflectance x (room + strength x screen colour),
 * so a frame of the person under the room light alone is multiplied, per
 * channel, by (1 + strength x colour), then divided by the gain on its
 * luminance (the camera's auto-exposure keeps the brightness, not the
 * colour). `strength` is the screen's light on the face relative to the
 * room's: 0.3 (default) is a phone 30 cm from the face in an ordinarily lit
 * room. Stronger coloured light also moves the face engine's embedding: at
 * 0.6, a magenta light took the turned frame of a-left-right from 0.66 to
 * 0.58 similar to the frontal one, under the same-person threshold (0.62);
 * at 0.3, 40 of 40 lit fixture bursts passed (lowest similarity 0.661).
 *
 * ONE ROOM. The fixture faces are cut from different photographs (the
 * frontal and the turned pictures of person A were shot under differently
 * coloured light, tests/fixtures/faces/README.md), so their skin colour jumps
 * between poses as no head turn does (their inner faces differ by 0.17 in
 * chroma, more than a bright room's whole colour response). `oneRoom` first
 * gives every frame the same light: each frame's channels are scaled so its
 * skin colour (the inner face of a centred face box, measured as the vision
 * worker measures it) has the first frame's chroma, keeping its own
 * brightness: one person's skin in one room. A recording replayed without
 * the colour response is the fixture frames as they are.
 */
export type FaceBox = [number, number, number, number];
/** `faceBoxes`: each frame's face box (detectedFaceBoxes) for the one-room balance; without, a centred box. */
export type ScreenLightOptions = { strength?: number; oneRoom?: boolean; quality?: number; faceBoxes?: readonly FaceBox[] };

const LINEAR = Array.from({ length: 256 }, (_, v) => srgbToLinear(v / 255));
const toSrgb = (x: number) => {
  const v = x <= 0.0031308 ? 12.92 * x : 1.055 * x ** (1 / 2.4) - 0.055;
  return Math.max(0, Math.min(255, Math.round(v * 255)));
};
const luminance = (c: readonly number[]) => 0.2126 * c[0]! + 0.7152 * c[1]! + 0.0722 * c[2]!;

type Raw = { data: Buffer; width: number; height: number };

async function decode(image: Buffer): Promise<Raw> {
  const { data, info } = await sharp(image).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * The skin colour of the picture's face, measured as the vision worker does
 * (workers/skin-colour.mjs), on its face box: the one given, else a centred
 * square of 72% of the picture's height (the fixture crops are the face).
 */
function meanLinear(raw: Raw, given?: FaceBox): [number, number, number] {
  const side = 0.72 * raw.height;
  const box = given ?? [(raw.width - side) / 2, (raw.height - side) / 2, side, side];
  const skin = skinColour(raw.data, raw.width, raw.height, box) as [number, number, number] | null;
  if (!skin) throw new Error("No skin to balance in this picture");
  return skin;
}

/** Multiplies each channel (in linear light) by `gain`. */
function scaled(raw: Raw, gain: readonly number[]): Raw {
  const out = Buffer.alloc(raw.data.length);
  for (let i = 0; i < raw.data.length; i += 3) for (let c = 0; c < 3; c++) out[i + c] = toSrgb(LINEAR[raw.data[i + c]!]! * gain[c]!);
  return { ...raw, data: out };
}

/** The frames (JPEG or PNG) as the camera records them under the screen's `colours` (one per frame), as JPEG. */
export async function underScreenLight(frames: readonly Buffer[], colours: readonly string[], options: ScreenLightOptions = {}): Promise<Buffer[]> {
  const { strength = 0.3, oneRoom = true, quality = 92 } = options;
  if (colours.length < frames.length) throw new Error(`${colours.length} colours for ${frames.length} frames`);
  const raws = await Promise.all(frames.map(decode));
  const room = meanLinear(raws[0]!, options.faceBoxes?.[0]);
  return Promise.all(
    raws.map((raw, k) => {
      const own = meanLinear(raw, options.faceBoxes?.[k]);
      const balance = oneRoom ? room.map((r, c) => ((r / luminance(room)) * luminance(own)) / own[c]!) : [1, 1, 1];
      const light = linearRgb(colours[k]!).map((e) => 1 + strength * e);
      const exposure = luminance(light);
      const lit = scaled(raw, balance.map((b, c) => (b * light[c]!) / exposure));
      return sharp(lit.data, { raw: { width: raw.width, height: raw.height, channels: 3 } }).jpeg({ quality }).toBuffer();
    }),
  );
}

/**
 * The face box of each picture as the server's face engine finds it (the
 * largest face), for pictures whose face is not centred the same way in
 * every pose (person A's camera pictures). Closes the vision pool it used.
 */
export async function detectedFaceBoxes(images: readonly Buffer[]): Promise<FaceBox[]> {
  const { analyseFaces, closeVisionPool } = await import("@/lib/vision/pool");
  try {
    const analyses = await Promise.all(images.map((image) => analyseFaces(image)));
    return analyses.map((a, i) => {
      const face = [...a.faces].sort((p, q) => q.box[2] * q.box[3] - p.box[2] * p.box[3])[0];
      if (!face) throw new Error(`No face in picture ${i + 1}`);
      return face.box;
    });
  } finally {
    await closeVisionPool();
  }
}
