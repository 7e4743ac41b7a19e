import { ERROR_CATALOGUE, type ErrorCode } from "./error-catalogue";

type Options = {
  message?: string;
  /** Only a status the catalogue lists for this code. */
  status?: number;
  /** Populated `data` of the error envelope (spec 2.1: `[]` otherwise). */
  data?: Record<string, unknown>;
  headers?: Record<string, string>;
};

/** Marks an ApiError whichever copy of this module made it. */
const API_ERROR = Symbol.for("svc.api-error");

/** Thrown anywhere in domain or HTTP code; the route wrapper renders it. */
export class ApiError extends Error {
  /**
   * `instanceof ApiError` holds for an ApiError made by any copy of this
   * module: Next bundles a module into each chunk that uses it, and the
   * callers the server registers at start-up (lib/http/core/callers.ts) run
   * in another chunk than the route that catches what they throw. Without
   * this, their 401 became a 500.
   */
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as { [API_ERROR]?: unknown })[API_ERROR] === true;
  }

  readonly [API_ERROR] = true;
  readonly code: ErrorCode;
  readonly status: number;
  readonly data: Record<string, unknown> | unknown[];
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, options: Options = {}) {
    const entry = ERROR_CATALOGUE[code] as { status: number; also?: readonly number[]; message: string };
    super(options.message ?? entry.message);
    this.name = "ApiError";
    this.code = code;
    if (options.status !== undefined && options.status !== entry.status && !entry.also?.includes(options.status)) {
      throw new Error(`Status ${options.status} is not catalogued for ${code}`);
    }
    this.status = options.status ?? entry.status;
    this.data = options.data ?? [];
    this.headers = options.headers ?? {};
  }
}
