import type { ApiError } from "./api-error";

/** Spec 2.1: success is `{ success: true, data }` with no `error` key. */
export function successBody<T>(data: T) {
  return { success: true as const, data };
}

/** Spec 2.1 / 7: `{ success: false, data: [] | object, error: { code, message } }`. */
export function errorBody(error: ApiError) {
  return { success: false as const, data: error.data, error: { code: error.code, message: error.message } };
}
