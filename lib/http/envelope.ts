import type { ApiError } from "./api-error";

/** Spec 2.1: success is `{ success: true, data }` with no `error` key. */
export function successBody<T>(data: T) {
  return { success: true as const, data };
}

/** Spec 2.1 / 7: `{ success: false, data: [] | object, error: { code, message } }`. */
export function errorBody(error: ApiError) {
  return { success: false as const, data: error.data, error: { code: error.code, message: error.message } };
}

export function jsonResponse(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
}
