import { ERROR_CATALOGUE, type ErrorCode } from "./error-catalogue";

type Options = {
  message?: string;
  /** Only a status the catalogue lists for this code. */
  status?: number;
  /** Populated `data` of the error envelope (spec 2.1: `[]` otherwise). */
  data?: Record<string, unknown>;
  headers?: Record<string, string>;
};

/** Thrown anywhere in domain or HTTP code; the route wrapper renders it. */
export class ApiError extends Error {
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
