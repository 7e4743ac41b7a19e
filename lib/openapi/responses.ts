import { z } from "zod";
import { changesSession, takesIdempotencyKey } from "@/lib/http/core/request-rules";
import { ERROR_CATALOGUE, type ErrorCode } from "@/lib/http/error-catalogue";
import type { Operation, OperationAuth, OperationError, OperationSuccess } from "@/lib/http/operation";

/**
 * The parts every operation shares: the spec envelopes (2.1), the headers of
 * every response, and the errors each layer of the HTTP core can answer
 * (lib/http/core/pipeline.ts), so an operation lists only its own.
 */
export const RESPONSE_HEADERS = {
  "X-Request-Id": { description: "The request's id (also in the logs); quote it to support.", schema: { type: "string" } },
} as const;

export const RATE_LIMIT_HEADERS = {
  "X-RateLimit-Limit": { description: "Requests allowed per minute in this bucket.", schema: { type: "string" } },
  "X-RateLimit-Remaining": { description: "Requests left in the current minute.", schema: { type: "string" } },
} as const;

export const IDEMPOTENCY_KEY_PARAMETER = {
  in: "header",
  name: "Idempotency-Key",
  required: false,
  description:
    "Makes a POST safe to retry: the first response (success or error other than 5xx) is stored for 24 h and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body answers 422 `idempotency_key_reused`; while the first is still running, 409 `idempotency_in_progress`.",
  schema: { type: "string", minLength: 1, maxLength: 255 },
} as const;

/** `{ success: true, data }` (spec 2.1). */
export function successEnvelope(data: z.ZodType) {
  return z.object({ success: z.literal(true), data });
}

/** `{ success: false, data, error: { code, message } }` with the codes possible at one status. */
export function errorEnvelope(codes: readonly ErrorCode[]) {
  return z.object({
    success: z.literal(false),
    data: z.union([z.array(z.unknown()).max(0), z.record(z.string(), z.unknown())]).meta({
      description: "`[]`, or an object with details (for `invalid_request`, a map of field → message).",
    }),
    error: z.object({
      code: z.enum(codes as [ErrorCode, ...ErrorCode[]]),
      message: z.string().meta({ description: "For people; may change. Branch on `code`." }),
    }),
  });
}

/** RFC 6749 5.2's error body: the token endpoint's answer to a form post. */
export function oauthErrorBody(codes: readonly ErrorCode[]) {
  return z
    .object({
      error: z.enum(codes as [ErrorCode, ...ErrorCode[]]),
      error_description: z.string().meta({ description: "For people; printable ASCII without `\"` and `\\` (RFC 6749 5.2)." }),
    })
    .meta({ description: "RFC 6749 5.2: the answer to an `application/x-www-form-urlencoded` request." });
}

const AUTH_ERRORS: Record<OperationAuth, readonly OperationError[]> = {
  apiKey: ["invalid_api_key"],
  client: ["invalid_client"],
  sessionToken: ["token_missing", "session_not_found"],
  accessToken: ["invalid_token", "insufficient_scope"],
  oauthClient: ["invalid_client"],
  none: [],
};

/** Whether a POST takes part in the Idempotency-Key protocol (lib/http/core/request-rules.ts). */
export function acceptsIdempotencyKey(op: Operation): boolean {
  return takesIdempotencyKey(op.method, op.auth);
}

/** Every error the operation can answer: its own and those of the core's layers it passes through. */
export function errorsOf(op: Operation): Map<number, ErrorCode[]> {
  // invalid_request: the core refuses unusable path or query text on every route.
  // service_unavailable: the core answers 503 when the database cannot be reached (lib/db/outage.ts).
  const all: OperationError[] = [...AUTH_ERRORS[op.auth], ...op.errors, "invalid_request", "server_error", "service_unavailable"];
  if (op.auth === "sessionToken" && changesSession(op.method)) all.push("session_expired", ...(op.answersDecidedSession ? [] : (["session_closed"] as const)));
  if (op.rateLimited !== false) all.push("rate_limited");
  if (op.body || op.form || op.upload) all.push("request_too_large");
  if (acceptsIdempotencyKey(op)) all.push("idempotency_in_progress", "idempotency_key_reused");
  const byStatus = new Map<number, ErrorCode[]>();
  for (const entry of all) {
    const [code, status] = typeof entry === "string" ? [entry, ERROR_CATALOGUE[entry].status] : entry;
    const codes = byStatus.get(status) ?? [];
    if (!codes.includes(code)) codes.push(code);
    byStatus.set(status, codes);
  }
  return byStatus;
}

export function successesOf(op: Operation): readonly OperationSuccess[] {
  return Array.isArray(op.success) ? op.success : [op.success as OperationSuccess];
}

/** The security requirement of an auth kind (names in document.ts's securitySchemes). */
export function securityOf(auth: OperationAuth): Record<string, string[]>[] | undefined {
  switch (auth) {
    case "apiKey":
      return [{ ApiKeyBearer: [] }, { ApiKeyHeader: [] }];
    case "client":
      return [{ ClientId: [], ClientSecret: [] }];
    case "sessionToken":
      return [{ SessionToken: [] }, { SessionTokenHeader: [] }];
    case "accessToken":
      return [{ OidcAccessToken: [] }];
    case "oauthClient":
      return [{ ClientSecretBasic: [] }, {}];
    case "none":
      return [];
  }
}
