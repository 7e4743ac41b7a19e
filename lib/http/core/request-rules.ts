/**
 * Two rules of the HTTP core that the OpenAPI document (lib/openapi/
 * responses.ts) states too, kept here, away from the pipeline's imports, so
 * both read the same function.
 */

/** Auth kinds that name a tenant (an app's credentials or a hosted session): their POSTs take an Idempotency-Key, scoped to that tenant. */
const TENANT_AUTH_KINDS: readonly string[] = ["apiKey", "client", "sessionToken"];

export function takesIdempotencyKey(method: string, auth: string): boolean {
  return method.toUpperCase() === "POST" && TENANT_AUTH_KINDS.includes(auth);
}

/** A hosted-flow request other than a read acts on its session, which must then be open (410 `session_expired`, 409 `session_closed`). */
export function changesSession(method: string): boolean {
  const m = method.toUpperCase();
  return m !== "GET" && m !== "HEAD";
}
