import sharp, { type Metadata } from "sharp";
import { ApiError } from "@/lib/http/api-error";

/**
 * First look at an uploaded image, before any model sees it: a format we
 * decode (JPEG, PNG, WebP, HEIC/AVIF), big enough to hold a readable face or
 * document, and not a decompression bomb. Anything else is 422
 * `invalid_image` naming the field, so the page can say which photo to retake.
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
  return { format, width, height };
}
