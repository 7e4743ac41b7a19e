import { successBody } from "../envelope";

/**
 * What a handler answers, whatever the surface: the spec's success envelope
 * (`data`), top-level JSON (OAuth token responses, userinfo, JWKS,
 * discovery), a browser redirect, an HTML page, bytes (an image), or
 * nothing (204). The core
 * renders every kind the same way on every server (lib/http/core/pipeline.ts).
 */
export type ReplyKind = "data" | "json" | "redirect" | "html" | "bytes" | "empty";
export type HeaderValues = Record<string, string | string[]>;

/**
 * `T` is what the reply carries (`data` or top-level JSON): a route built
 * from a documented operation must answer what the operation's success
 * schema says (lib/http/api-route.ts). Replies without a body of that kind
 * (redirects, pages, bytes, empty) carry `never`, which fits every route.
 */
export class Reply<T = unknown> {
  /** Type only: what the reply carries. */
  declare readonly carries?: T;

  private constructor(
    readonly kind: ReplyKind,
    readonly status: number,
    readonly headers: HeaderValues,
    readonly payload: unknown,
  ) {}

  /** `{ success: true, data }` (spec 2.1). */
  static data<T>(data: T, status = 200, headers: HeaderValues = {}): Reply<T> {
    return new Reply<T>("data", status, headers, data);
  }

  /** Top-level JSON without the envelope (spec 2.1: the token endpoint; standard OIDC documents). */
  static json<T>(body: T, status = 200, headers: HeaderValues = {}): Reply<T> {
    return new Reply<T>("json", status, headers, body);
  }

  /** A 303 See Other (the browser follows with a GET), optionally setting cookies. */
  static redirect(location: string, cookies: string[] = []): Reply<never> {
    return new Reply<never>("redirect", 303, cookies.length ? { Location: location, "Set-Cookie": cookies } : { Location: location }, null);
  }

  static html(body: string, status = 200, headers: HeaderValues = {}): Reply<never> {
    return new Reply<never>("html", status, headers, body);
  }

  /** A file's bytes with its type (e.g. a kept review image); never cached unless the caller says otherwise. */
  static bytes(body: Uint8Array, contentType: string, headers: HeaderValues = {}): Reply<never> {
    return new Reply<never>("bytes", 200, { "Content-Type": contentType, ...headers }, body);
  }

  static empty(status = 204, headers: HeaderValues = {}): Reply<never> {
    return new Reply<never>("empty", status, headers, null);
  }
}

/** A rendered response: what any server adapter writes. */
export type Rendered = { status: number; headers: HeaderValues; body: string | Uint8Array | null };

const JSON_TYPE = "application/json; charset=utf-8";
const NO_STORE = { "Cache-Control": "no-store" };

/** Pages of the person's sign-in and error screens: never framed, nothing loaded from elsewhere. */
const PAGE_HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "no-store",
  Pragma: "no-cache",
  "X-Frame-Options": "DENY",
  "Content-Security-Policy":
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  "Referrer-Policy": "no-referrer",
};

export function renderReply(reply: Reply): Rendered {
  switch (reply.kind) {
    case "data":
      return {
        status: reply.status,
        headers: { "Content-Type": JSON_TYPE, ...NO_STORE, ...reply.headers },
        body: JSON.stringify(successBody(reply.payload)),
      };
    case "json":
      return {
        status: reply.status,
        headers: { "Content-Type": JSON_TYPE, ...NO_STORE, Pragma: "no-cache", ...reply.headers },
        body: JSON.stringify(reply.payload),
      };
    case "redirect":
      return { status: reply.status, headers: { ...NO_STORE, ...reply.headers }, body: null };
    case "html":
      return { status: reply.status, headers: { ...PAGE_HEADERS, ...reply.headers }, body: reply.payload as string };
    case "bytes":
      return {
        status: reply.status,
        headers: { ...NO_STORE, Pragma: "no-cache", "X-Content-Type-Options": "nosniff", ...reply.headers },
        body: reply.payload as Uint8Array,
      };
    case "empty":
      return { status: reply.status, headers: { ...reply.headers }, body: null };
  }
}
