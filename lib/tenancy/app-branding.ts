import sharp from "sharp";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";

/**
 * The app's logo on the hosted verification page: a PNG, JPEG, WebP or SVG
 * image stored as a data URL (at most 100 KB), so the page needs no other
 * origin. 422 `logo_invalid` / `logo_too_large` (spec 7).
 */
export const MAX_LOGO_BYTES = 100 * 1024;
const TYPES: Record<string, string> = { png: "image/png", jpeg: "image/jpeg", webp: "image/webp", svg: "image/svg+xml" };

export async function logoDataUrl(bytes: Uint8Array): Promise<string> {
  if (bytes.byteLength > MAX_LOGO_BYTES) {
    throw new ApiError("logo_too_large", { message: `Logo is ${Math.ceil(bytes.byteLength / 1024)} KB; at most ${MAX_LOGO_BYTES / 1024} KB` });
  }
  const format = await sharp(bytes).metadata().then((m) => m.format, () => undefined);
  const type = format ? TYPES[format] : undefined;
  if (!type) throw new ApiError("logo_invalid", { message: "Logo must be a PNG, JPEG, WebP or SVG image" });
  return `data:${type};base64,${Buffer.from(bytes).toString("base64")}`;
}

/** Sets (or with null clears) the app's logo. */
export async function setAppLogo(appId: string, bytes: Uint8Array | null) {
  const logo = bytes ? await logoDataUrl(bytes) : null;
  const prisma = await db();
  const app = await prisma.app.findUnique({ where: { id: appId } });
  if (!app) throw new ApiError("not_found", { message: "App not found" });
  await prisma.app.update({ where: { id: appId }, data: { logo } });
  return { app_id: appId, logo_bytes: bytes?.byteLength ?? 0 };
}
