import { ApiError } from "../api-error";

/**
 * Text that can never be stored: a NUL character (PostgreSQL text and JSON
 * refuse it) or an unpaired UTF-16 surrogate (not Unicode; JSON columns
 * refuse it). Every string that enters through a request (JSON keys and
 * values, query and form parameters, path ids, multipart fields) is checked
 * here, so such input is a 400, never a database error.
 */
export function isStorableText(text: string): boolean {
  return !text.includes("\u0000") && text.isWellFormed();
}

const MESSAGE = "Must not contain NUL characters or unpaired UTF-16 surrogates";

function refuse(at: string): never {
  const path = at || "body";
  throw new ApiError("invalid_request", {
    message: `Invalid request: ${path} contains characters that cannot be stored`,
    data: { errors: { [path]: [MESSAGE] } },
  });
}

/** No request of this API nests deeper; deeper input is refused before anything recurses over it. */
export const MAX_JSON_DEPTH = 32;

/**
 * Walks a parsed JSON value; throws 400 `invalid_request` naming the first
 * bad key or string, or the first value nested deeper than MAX_JSON_DEPTH.
 */
export function assertStorableJson(value: unknown, path: string, depth = 0): void {
  if (typeof value === "string") {
    if (!isStorableText(value)) refuse(path);
    return;
  }
  if (value === null || typeof value !== "object") return;
  if (depth >= MAX_JSON_DEPTH) {
    throw new ApiError("invalid_request", {
      message: `Invalid request: ${path || "body"} is nested deeper than ${MAX_JSON_DEPTH} levels`,
      data: { errors: { [path || "body"]: [`Nested deeper than ${MAX_JSON_DEPTH} levels`] } },
    });
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => assertStorableJson(item, path ? `${path}.${i}` : String(i), depth + 1));
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (!isStorableText(key)) refuse(path);
    assertStorableJson(item, at, depth + 1);
  }
}

/** Named text values (query, form, path parameters, multipart fields). */
export function assertStorableEntries(entries: Iterable<[string, string]>, root: string): void {
  for (const [key, value] of entries) {
    if (!isStorableText(key)) refuse(root);
    if (!isStorableText(value)) refuse(key);
  }
}
