import { randomBytes } from "node:crypto";

export type HeaderReader = { get(name: string): string | null };

/**
 * What the core needs of an incoming request, whatever server delivered it
 * (a Next route handler or the node:http edge): adapters in
 * lib/http/adapters/ build one.
 */
export interface CoreRequest {
  readonly method: string;
  /** Absolute URL on the local origin (the public origin is PUBLIC_BASE_URL, never the request's). */
  readonly url: string;
  readonly headers: HeaderReader;
  /**
   * The body, or null as soon as it is known to exceed `cap` bytes (declared
   * or counted while streaming). Rejects with ClientClosedRequest when the
   * body stops arriving (the client went away).
   */
  readBody(cap: number): Promise<Uint8Array | null>;
}

/**
 * The request's body failed while arriving: the client closed the connection
 * (Node's "aborted", whose code ECONNRESET is the client's socket, not the
 * database's). Nobody is left to answer; the core logs it as a closed request.
 */
export class ClientClosedRequest extends Error {
  constructor(cause: unknown) {
    super("The client closed the connection before its request body arrived", { cause });
    this.name = "ClientClosedRequest";
  }
}

/** The request as handlers see it: `text()` reads the body within the route's limit (413 beyond it). */
export type RequestView = {
  readonly method: string;
  readonly url: string;
  readonly headers: HeaderReader;
  text(): Promise<string>;
};

export const REQUEST_ID_HEADER = "X-Request-Id";
/**
 * Set by the node:http edge on every request (overwriting anything a client
 * sent under that name), so the response header, the logs and the handler
 * share one id.
 */
export const INTERNAL_REQUEST_ID_HEADER = "x-svc-request-id";

const REQUEST_ID_PATTERN = /^req_[0-9a-f]{24}$/;

export function newRequestId(): string {
  return `req_${randomBytes(12).toString("hex")}`;
}

/** The id the edge gave this request, or a new one (a handler called without the edge, e.g. in unit tests). */
export function requestIdOf(headers: HeaderReader): string {
  const given = headers.get(INTERNAL_REQUEST_ID_HEADER);
  return given && REQUEST_ID_PATTERN.test(given) ? given : newRequestId();
}
