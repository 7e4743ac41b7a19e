import createClient, { type Client } from "openapi-fetch";
import type { paths } from "./schema.js";

/**
 * Typed clients of the service's REST surfaces, built on openapi-fetch with
 * the types generated from the service's OpenAPI document (src/schema.ts).
 * Every POST carries an `Idempotency-Key` (one per logical call, generated
 * unless you pass your own), so the retries on 429, 5xx and network errors
 * reuse it and the server runs the call once.
 */
export type RetryOptions = {
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  /** Delay before retry `attempt` (1-based), in ms; default exponential with jitter from 250 ms, capped at 8 s. */
  delayMs?: (attempt: number, response: Response | null) => number;
};

export type BaseOptions = RetryOptions & {
  /** The service's origin, e.g. https://verify.example.com */
  baseUrl: string;
  /** A fetch implementation (default: the global fetch). */
  fetch?: (request: Request) => Promise<Response>;
};

export const IDEMPOTENCY_HEADER = "Idempotency-Key";

/**
 * 429, 5xx, and a 409 `idempotency_in_progress` (the same key is still
 * running, or its process died and the claim is taken over after a minute):
 * the other 409s (a closed session, a conflict) are answers, not retried.
 */
async function isRetryable(response: Response): Promise<boolean> {
  if (response.status === 429 || response.status >= 500) return true;
  if (response.status !== 409) return false;
  const body = (await response.clone().json().catch(() => null)) as { error?: { code?: string } } | null;
  return body?.error?.code === "idempotency_in_progress";
}

function defaultDelay(attempt: number, response: Response | null) {
  const retryAfter = Number(response?.headers.get("retry-after"));
  if (Number.isFinite(retryAfter) && retryAfter > 0) return Math.min(retryAfter * 1000, 30_000);
  const base = Math.min(8000, 250 * 2 ** (attempt - 1));
  return base / 2 + Math.random() * (base / 2);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A fetch that gives a POST one Idempotency-Key (kept if the caller set one)
 * and retries the same request, key included, on 429, 5xx, a 409
 * `idempotency_in_progress` and network errors. Every method is retried: GET and DELETE are safe, the service's
 * PATCHes set a state, and a POST replays under its key.
 */
export function retryingFetch(options: BaseOptions): (request: Request) => Promise<Response> {
  const inner = options.fetch ?? ((request: Request) => fetch(request));
  const maxRetries = options.maxRetries ?? 3;
  const delay = options.delayMs ?? defaultDelay;
  return async (request: Request) => {
    if (request.method === "POST" && !request.headers.has(IDEMPOTENCY_HEADER)) {
      request.headers.set(IDEMPOTENCY_HEADER, crypto.randomUUID());
    }
    for (let attempt = 0; ; attempt++) {
      let response: Response | null = null;
      try {
        response = await inner(request.clone());
      } catch (error) {
        if (attempt >= maxRetries) throw error;
      }
      if (response && (attempt >= maxRetries || !(await isRetryable(response)))) return response;
      await response?.body?.cancel();
      await sleep(delay(attempt + 1, response));
    }
  };
}

function clientWith(options: BaseOptions, headers: Record<string, string>): Client<paths> {
  return createClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ""), headers, fetch: retryingFetch(options) });
}

/** The verification API (`/api/v2`), authenticated by an API key. */
export function createVerificationClient(options: BaseOptions & { apiKey: string }): Client<paths> {
  return clientWith(options, { "X-API-Key": options.apiKey });
}

/** The organization API (`/api/sdk`), authenticated by the app's client credentials (server side only). */
export function createOrganizationClient(options: BaseOptions & { clientId: string; clientSecret: string }): Client<paths> {
  return clientWith(options, { "X-Client-Id": options.clientId, "X-Client-Secret": options.clientSecret });
}

/**
 * The account reads of a person who signed in with OpenID Connect, with
 * their access token: userinfo (scope `profile`), licences, and verification
 * status (scope `verifications`). These never run a new check and are free.
 */
export function createAccountReader(options: BaseOptions & { accessToken: string }) {
  const client = clientWith(options, { Authorization: `Bearer ${options.accessToken}` });
  return {
    userinfo: () => client.GET("/api/auth/oidc/userinfo"),
    licenses: () => client.GET("/api/auth/oidc/licenses"),
    verifications: () => client.GET("/api/auth/oidc/verifications"),
  };
}
