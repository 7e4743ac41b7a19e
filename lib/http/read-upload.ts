import { createHash } from "node:crypto";
import { ApiError } from "./api-error";
import { assertStorableEntries } from "./core/clean-input";
import type { CoreRequest } from "./core/request";

/**
 * multipart/form-data uploads of the hosted flow (document images, liveness
 * frames, a selfie). Spec 8: each image under 20 MB (413 image_too_large).
 * The whole body is capped at `maxFiles` images: a body declared larger is
 * refused before it is read, and one that turns out larger while it streams
 * is cut off there; within the cap it is read into memory and parsed.
 */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

export type UploadedFile = { field: string; name: string; type: string; bytes: Uint8Array };
export type Upload = { fields: Record<string, string>; files: UploadedFile[] };
export type UploadLimits = { maxFiles: number };

const MB = 1024 * 1024;

function tooLarge(limit: number): ApiError {
  return new ApiError("image_too_large", {
    message: `Upload too large: each image must be under ${MAX_IMAGE_BYTES / MB} MB (at most ${limit / MB} MB per request)`,
    data: { limit_bytes: MAX_IMAGE_BYTES },
  });
}

export async function readUpload(req: Pick<CoreRequest, "headers" | "readBody">, limits: UploadLimits): Promise<Upload> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data/i.test(type)) {
    throw new ApiError("invalid_request", { message: "Send the images as multipart/form-data" });
  }
  const cap = limits.maxFiles * MAX_IMAGE_BYTES + MB;
  const body = await req.readBody(cap);
  if (body === null) throw tooLarge(cap);
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { "content-type": type } }).formData();
  } catch {
    throw new ApiError("invalid_request", { message: "Malformed multipart/form-data body" });
  }
  const upload: Upload = { fields: Object.create(null) as Record<string, string>, files: [] };
  for (const [field, value] of form.entries()) {
    if (typeof value === "string") {
      assertStorableEntries([[field, value]], "form");
      upload.fields[field] = value;
      continue;
    }
    if (value.size > MAX_IMAGE_BYTES) {
      throw new ApiError("image_too_large", {
        message: `${field} (${value.name || "file"}) is ${(value.size / MB).toFixed(1)} MB; images must be under 20 MB`,
        data: { field, bytes: value.size, limit_bytes: MAX_IMAGE_BYTES },
      });
    }
    upload.files.push({ field, name: value.name, type: value.type, bytes: new Uint8Array(await value.arrayBuffer()) });
  }
  return upload;
}

/**
 * What identifies an upload for Idempotency-Key: its fields and the SHA-256
 * of each file, in order (not the raw body: a client's retry sends the same
 * parts under a new multipart boundary).
 */
export function uploadFingerprint(upload: Upload): string {
  const hash = createHash("sha256");
  for (const [k, v] of Object.entries(upload.fields).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) hash.update(`field ${k}=${v}\n`);
  for (const f of upload.files) hash.update(`file ${f.field} ${f.type} ${createHash("sha256").update(f.bytes).digest("hex")}\n`);
  return hash.digest("hex");
}
