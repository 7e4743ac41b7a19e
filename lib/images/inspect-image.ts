import sharp, { type Metadata } from "sharp";
import { ApiError } from "@/lib/http/api-error";

/**
 * First look at an uploaded image, before any model sees it: a format we
 * decode (JPEG, PNG, WebP, HEIC/AVIF), big enough to hold a readable face or
 * document, not a decompression bomb, and whole (it decodes to the last
 * pixel: a JPEG cut short has a valid header). Anything else is 422
 * `invalid_image` naming the field, so the page can say which photo to
 * retake; nothing is queued for the vision workers or billed.
 */
const FORMATS = new Set(["jpeg", "png", "webp", "heif", "avif"]);
const MIN_SIDE = 120;
const MAX_PIXELS = 100_000_000;

export type ImageInfo = { format: string; width: number; height: number };

export async function inspectImage(bytes: Uint8Array, field: string): Promise<ImageInfo> {
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: MAX_PIXELS }).metadata();
  } catch {
    throw new ApiError("invalid_image", { status: 422, message: `${field} is not an image we can read (JPEG, PNG, WebP or HEIC)`, data: { field } });
  }
  const { format, width, height } = meta;
  if (!format || !FORMATS.has(format) || !width || !height) {
    throw new ApiError("invalid_image", { status: 422, message: `${field}: ${format ?? "unknown"} images are not accepted; send JPEG, PNG, WebP or HEIC`, data: { field } });
  }
  if (width * height > MAX_PIXELS) {
    throw new ApiError("invalid_image", { status: 422, message: `${field} is ${width}x${height}: too many pixels`, data: { field } });
  }
  if (Math.min(width, height) < MIN_SIDE) {
    throw new ApiError("invalid_image", { status: 422, message: `${field} is ${width}x${height}: too small to check (at least ${MIN_SIDE} px each side)`, data: { field } });
  }
  if (!(await decodesFully(bytes))) {
    throw new ApiError("invalid_image", { status: 422, message: `${field} is damaged or cut short (it does not decode to the end); take or send it again`, data: { field } });
  }
  return { format, width, height };
}

/**
 * Whether every pixel of the image decodes, as the vision workers will decode
 * it (sharp's default `failOn: "warning"`, so a truncated JPEG fails). Shrunk
 * on load to 256 px: the whole compressed stream is still read, the memory
 * stays small.
 */
async function decodesFully(bytes: Uint8Array): Promise<boolean> {
  try {
    await sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: "warning" }).resize({ width: 256, height: 256, fit: "inside", withoutEnlargement: true }).raw().toBuffer();
    return true;
  } catch {
    return false;
  }
}
