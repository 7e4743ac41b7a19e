import type { Challenge, ChecksResponse, DocumentResponse, CredentialProvider, CredentialResponse, CredentialState, FinishResponse, FlowState, LicenceField } from "./types";

/**
 * The page's calls to the hosted-flow API, each authenticated by the session
 * token (`Authorization: Bearer st_...`; it never goes into a URL). Answers
 * come in the `{ success, data }` envelope; a failure throws `FlowApiError`
 * with the server's error code (or `network` when the server was not reached).
 */
export class FlowApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly data: Record<string, unknown> | null = null,
  ) {
    super(message);
    this.name = "FlowApiError";
  }
}

/** Errors about the session itself rather than the step: the whole page changes. */
export const SESSION_PROBLEM_CODES: ReadonlySet<string> = new Set(["token_missing", "session_not_found", "session_expired", "session_closed"]);

export function isSessionProblem(err: unknown): err is FlowApiError {
  return err instanceof FlowApiError && SESSION_PROBLEM_CODES.has(err.code);
}

export type FlowApi = ReturnType<typeof createFlowApi>;

export function createFlowApi(token: string, options: { onSessionProblem?: (err: FlowApiError) => void } = {}) {
  async function call<T>(method: "GET" | "POST", path: string, body?: FormData | Record<string, unknown>): Promise<T> {
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: "application/json" };
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body) {
      headers["Content-Type"] = "application/json";
      payload = JSON.stringify(body);
    }
    let res: Response;
    try {
      res = await fetch(path, { method, headers, body: payload, cache: "no-store", credentials: "omit", referrerPolicy: "no-referrer" });
    } catch {
      throw new FlowApiError(0, "network", "The server could not be reached");
    }
    let envelope: { success?: boolean; data?: unknown; error?: { code?: string; message?: string } } | null = null;
    try {
      envelope = await res.json();
    } catch {
      envelope = null;
    }
    if (res.ok && envelope?.success) return envelope.data as T;
    const err = new FlowApiError(
      res.status,
      envelope?.error?.code ?? (res.status === 413 ? "image_too_large" : "unexpected"),
      envelope?.error?.message ?? `HTTP ${res.status}`,
      (envelope?.data as Record<string, unknown> | null | undefined) ?? null,
    );
    if (SESSION_PROBLEM_CODES.has(err.code)) options.onSessionProblem?.(err);
    throw err;
  }

  return {
    getFlow: () => call<FlowState>("GET", "/api/v2/flow"),
    submitDocument: (endpoint: string, form: FormData) => call<DocumentResponse>("POST", endpoint, form),
    requestChallenge: (endpoint: string, body?: { skip_colours: boolean }) => call<Challenge>("POST", endpoint, body),
    submitBurst: (endpoint: string, form: FormData) => call<ChecksResponse>("POST", endpoint, form),
    submitSelfie: (endpoint: string, form: FormData) => call<ChecksResponse>("POST", endpoint, form),
    submitLocation: (endpoint: string, body: Record<string, unknown>) => call<ChecksResponse["checks"][number]>("POST", endpoint, body),
    getCredentialStates: (statesEndpoint: string) => call<{ states: CredentialState[] }>("GET", statesEndpoint),
    getCredentialProviders: (statesEndpoint: string, stateCode: string) =>
      call<{ providers: CredentialProvider[] }>("GET", `${statesEndpoint}/${encodeURIComponent(stateCode)}/providers`),
    submitCredential: (endpoint: string, body: { credential_code: string; fields: Partial<Record<LicenceField, string>> }) =>
      call<CredentialResponse>("POST", endpoint, body),
    finish: () => call<FinishResponse>("POST", "/api/v2/flow/finish"),
  };
}
