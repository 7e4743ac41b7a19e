import { ApiError } from "./api-error";

/**
 * multipart/form-data uploads of the hosted flow (document images, liveness
 * frames, a selfie). Spec 8: each image under 20 MB (413 image_too_large);
 * the whole body is capped at `maxFiles` images, counted as it streams, so
 * an oversized or endless upload is cut off without being buffered.
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

async function readCapped(req: Request, cap: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > cap) throw tooLarge(cap);
  if (!req.body) return new Uint8Array(new ArrayBuffer(0));
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > cap) {
      await reader.cancel().catch(() => {});
      throw tooLarge(cap);
    }
    chunks.push(value);
  }
  return new Uint8Array(Buffer.concat(chunks, total));
}

export async function readUpload(req: Request, limits: UploadLimits): Promise<Upload> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data/i.test(type)) {
    throw new ApiError("invalid_request", { message: "Send the images as multipart/form-data" });
  }
  const cap = limits.maxFiles * MAX_IMAGE_BYTES + MB;
  const body = await readCapped(req, cap);
  let form: FormData;
  try {
    form = await new Response(body, { headers: { "content-type": type } }).formData();
  } catch {
    throw new ApiError("invalid_request", { message: "Malformed multipart/form-data body" });
  }
  const upload: Upload = { fields: {}, files: [] };
  for (const [field, value] of form.entries()) {
    if (typeof value === "string") {
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
