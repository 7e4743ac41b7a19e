import type { z } from "zod";
import { ApiError } from "./api-error";

/** Per-field map for `data.errors`: `{ "members.0.email": ["Invalid email address"] }`. */
export function fieldErrors(error: z.ZodError, root = "body"): Record<string, string[]> {
  // Keys are the client's own field names ("constructor", "__proto__"...): no prototype to collide with.
  const errors: Record<string, string[]> = Object.create(null);
  // Request bodies and queries name fields by their own path; a single value
  // (a CLI flag, a path parameter) is named by its root.
  const prefix = root === "body" || root === "query" ? [] : [root];
  for (const issue of error.issues) {
    // An unknown field is reported under its own name.
    const paths =
      issue.code === "unrecognized_keys" ? issue.keys.map((k) => [...issue.path, k]) : [issue.path];
    for (const path of paths) {
      const key = path.length ? [...prefix, ...path.map(String)].join(".") : root;
      (errors[key] ??= []).push(issue.code === "unrecognized_keys" ? "Unknown field" : issue.message);
    }
  }
  return errors;
}

export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, root: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const errors = fieldErrors(result.error, root);
    const fields = Object.keys(errors).join(", ");
    throw new ApiError("invalid_request", { message: `Invalid request: ${fields}`, data: { errors } });
  }
  return result.data;
}

/** Ids of sessions, workflows and other resources are UUIDs. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
