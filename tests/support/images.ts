import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";

/**
 * Test images: crops of @vladmandic/human's assets/screenshot-facematch.jpg
 * (MIT; row 0 is nine photos of one man, "person A"; row 1 cells 6 and 7 are
 * two different women) and the committed fixtures (tests/fixtures/README.md).
 */
const FACEMATCH = "node_modules/@vladmandic/human/assets/screenshot-facematch.jpg";
export const FIXTURES = path.join(process.cwd(), "tests", "fixtures");

export function faceCell(col: number, row: number, size = 256): Promise<Buffer> {
  return sharp(FACEMATCH)
    .extract({ left: Math.round(col * 106.67) + 2, top: 280 + row * 110 + 2, width: 100, height: 100 })
    .resize(size)
    .jpeg()
    .toBuffer();
}

/** A plain image with no face in it. */
export function blankImage(width = 320, height = 240): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 90, g: 140, b: 200 } } }).jpeg().toBuffer();
}

export function fixture(...parts: string[]): Buffer {
  return fs.readFileSync(path.join(FIXTURES, ...parts));
}

/** multipart/form-data with the files under `field` (and extra text fields). */
export function imageForm(files: Record<string, Buffer | Buffer[]>, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [field, value] of Object.entries(files)) {
    const list = Array.isArray(value) ? value : [value];
    list.forEach((bytes, i) => form.append(field, new Blob([new Uint8Array(bytes)], { type: "image/jpeg" }), `${field}-${i}.jpg`));
  }
  return form;
}
