import type { z } from "zod";
import type { ErrorCode } from "./error-catalogue";

/**
 * One documented operation of the public surface. The request schemas are the
 * very zod schemas the route validates with (imported from `lib/<domain>/`),
 * so the document cannot drift from the validation; the response schema
 * describes what the handler returns and is checked against real responses
 * by the contract test (tests/integration/openapi-contract.test.ts).
 */
export type OperationAuth =
  /** `Authorization: Bearer <api key>` or `X-Api-Key` (spec 5). */
  | "apiKey"
  /** Organization API: `X-Client-Id` + `X-Client-Secret` (spec 5). */
  | "client"
  /** The hosted flow's session token (`Authorization: Bearer <session_token>`). */
  | "sessionToken"
  /** An OIDC access token (`Authorization: Bearer`). */
  | "accessToken"
  /** OAuth client authentication at the token endpoint (basic or post). */
  | "oauthClient"
  | "none";

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

/** An error an operation can answer: a catalogue code at its default status, or `[code, status]` for another status the catalogue allows. */
export type OperationError = ErrorCode | readonly [ErrorCode, number];

export type OperationSuccess = {
  status: number;
  description: string;
  /** The `data` of the spec envelope (`envelope`, the default), a top-level JSON body (`json`), or no body. */
  schema?: z.ZodType;
  body?: "envelope" | "json" | "none" | "html" | "redirect";
  /** Extra response headers (name → description). */
  headers?: Record<string, string>;
};

export type Operation = {
  method: HttpMethod;
  /** OpenAPI path with `{param}` placeholders, e.g. `/api/v2/session/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  auth: OperationAuth;
  params?: z.ZodObject;
  query?: z.ZodType;
  /** JSON request body. */
  body?: z.ZodType;
  /** `application/x-www-form-urlencoded` request body (with `body`: either is accepted). */
  form?: z.ZodType;
  /** `multipart/form-data` upload (described, not validated by zod: lib/http/read-upload.ts reads it). */
  upload?: Upload;
  success: OperationSuccess | readonly OperationSuccess[];
  /** The operation's own errors; those of its auth, validation, rate limit, idempotency and the 500 are added. */
  errors: readonly OperationError[];
  /** False for endpoints the core does not rate-limit (lib/http/rate-limit.ts rateLimitBucketFor): no 429, no rate-limit headers. */
  rateLimited?: boolean;
  /**
   * How errors are shown: the spec envelope (default); for browser routes,
   * an HTML page at the same status; `oauth`: the envelope for JSON
   * requests, RFC 6749's `{ error, error_description }` for form posts.
   */
  errorBody?: "envelope" | "html" | "oauth";
  /** The route's answersDecidedSession (lib/http/core/pipeline.ts): no 409 `session_closed`. */
  answersDecidedSession?: boolean;
};

/** An upload's parts: image files (one, or several in order) and text fields. */
export type Upload = {
  files: Record<string, { description: string; multiple?: boolean; required?: boolean }>;
  /** The text fields: the zod schema the route parses them with. */
  fields?: z.ZodObject;
};

/**
 * Declares one operation, keeping its schemas' types: a route built from it
 * (`apiRoute(operation, handler)`, lib/http/api-route.ts) gets its params,
 * query and body typed from these schemas, and its handler must return what
 * `success` describes; the OpenAPI document (lib/openapi/document.ts) is
 * written from the same object. One declaration per route.
 */
export function operation<const O extends Operation>(declared: O): O {
  return declared;
}

/** A surface's operations, in the order the document lists them. */
export function operations(list: readonly Operation[]): readonly Operation[] {
  return list;
}
