import sharp from "sharp";
import type { App } from "@/generated/prisma/client";
import { ApiError } from "@/lib/http/api-error";
import { loadArtifact } from "@/lib/artifacts/artifacts";
import { findSession } from "./find-session";
import { isReviewImageKind } from "./review-view";

/**
 * A kept image of a session waiting for review, decrypted for the reviewer
 * (docs/hosted-flow.md "Image retention"). Only while the session is IN_REVIEW: once
 * decided the images are purged, and an open session's are not a
 * reviewer's business. Otherwise 404 (`session_not_found` for another
 * app's session or an unknown id, `image_not_found` for the rest).
 * The type is read from the bytes, never from what the uploader declared.
 */
export async function loadReviewImage(app: App, sessionId: string, kind: string): Promise<{ bytes: Buffer; contentType: string }> {
  const session = await findSession(app, sessionId);
  const missing = () => new ApiError("image_not_found", { message: "No such image kept for review" });
  if (!isReviewImageKind(kind) || session.status !== "IN_REVIEW") throw missing();
  const bytes = await loadArtifact(session.id, kind);
  if (!bytes) throw missing();
  return { bytes, contentType: await imageTypeOf(bytes) };
}

/** The kept image's type as sharp reads it from the bytes (as the upload checks, lib/images/inspect-image.ts); anything else is opaque bytes. */
const IMAGE_TYPES: Record<string, string> = { jpeg: "image/jpeg", png: "image/png", webp: "image/webp", heif: "image/heif", avif: "image/avif" };

async function imageTypeOf(bytes: Uint8Array): Promise<string> {
  const format = await sharp(bytes).metadata().then((m) => m.format, () => undefined);
  return (format && IMAGE_TYPES[format]) || "application/octet-stream";
}
