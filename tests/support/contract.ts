import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { inject } from "vitest";
import { operationName, readOpenApiCopy, writeRecord } from "./contract-coverage";

/**
 * Checks a real response against the OpenAPI document (lib/openapi/): the
 * status must be one the operation declares, the body must match that
 * status's schema, and every response carries X-Request-Id. `api()` (support/
 * api.ts) runs it on every call the integration tests make to a documented
 * operation, so the whole suite is a contract test; a mismatch throws.
 * It reads the document's JSON copy, sdk/openapi.json, which the unit tests
 * hold equal to the one lib/openapi/ builds (and the server serves): parsing
 * JSON costs milliseconds in each test file, building it with zod seconds.
 *
 * Every answer matched to an operation is also recorded (operation, status,
 * whether it matched) in the run's record directory, which the integration
 * project's global setup provides (support/contract-coverage.ts); after a run
 * of the whole integration project the summary reporter fails the run if an
 * operation was never answered with a success. A call that does not go
 * through `api()` (a raw fetch, a client library) is checked and recorded
 * with `recordAndCheck()`.
 */
type Doc = { paths?: Record<string, Record<string, unknown>> };
type Matcher = { method: string; path: string; regex: RegExp; literal: number };

let state: { doc: Doc; ajv: Ajv2020; matchers: Matcher[]; validators: Map<string, ValidateFunction> } | undefined;

function pointer(...parts: string[]) {
  return parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
}

function load() {
  if (state) return state;
  const doc = readOpenApiCopy() as Doc;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc as object, "openapi.json");
  const matchers: Matcher[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of Object.keys(item ?? {})) {
      if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
      const regex = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`);
      matchers.push({ method, path, regex, literal: path.replace(/\{[^}]+\}/g, "").length });
    }
  }
  matchers.sort((a, b) => b.literal - a.literal);
  return (state = { doc, ajv, matchers, validators: new Map() });
}

/** The documented operation a request reaches, if any (the most literal path wins). */
export function documentedOperation(method: string, url: string): { method: string; path: string } | undefined {
  const pathname = new URL(url, "http://x").pathname;
  return load().matchers.find((m) => m.method === method.toLowerCase() && m.regex.test(pathname));
}

export class ContractViolation extends Error {}

/** The run's record directory in an integration test worker; undefined elsewhere (unit tests record nothing). */
function recordDirectory(): string | undefined {
  try {
    return inject("contractRecords");
  } catch {
    return undefined; // not in a vitest worker
  }
}

type Answer = { status: number; headers: Headers; text: string; body: unknown };

export function assertMatchesContract(method: string, url: string, res: Answer): void {
  const op = documentedOperation(method, url);
  if (!op) return;
  const dir = recordDirectory();
  const operationId = (load().doc.paths as Record<string, Record<string, { operationId?: string }>>)[op.path]?.[op.method]?.operationId;
  const operation = operationName(op.method, op.path, operationId);
  try {
    checkAnswer(method, op, res);
  } catch (error) {
    if (dir) writeRecord(dir, { operation, status: res.status, violation: error instanceof Error ? error.message : String(error) });
    throw error;
  }
  if (dir) writeRecord(dir, { operation, status: res.status });
}

/**
 * `assertMatchesContract` for a fetch answer that did not come through
 * `api()` (a browser-like request with `redirect: "manual"`, a client
 * library's fetch): reads a clone of the body, so the caller can still read
 * it; returns the same response.
 */
export async function recordAndCheck(method: string, url: string, response: Response): Promise<Response> {
  const text = await response.clone().text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  assertMatchesContract(method, url, { status: response.status, headers: response.headers, text, body });
  return response;
}

function checkAnswer(method: string, op: { method: string; path: string }, res: Answer): void {
  const { doc, ajv, validators } = load();
  const where = `${method.toUpperCase()} ${op.path} → ${res.status}`;
  type Responses = Record<string, { content?: Record<string, unknown> }>;
  const operation = (doc.paths as Record<string, Record<string, { responses: Responses }>>)[op.path]?.[op.method];
  if (!operation) return;
  const response = operation.responses[String(res.status)];
  if (!response) {
    throw new ContractViolation(`${where}: status not in the OpenAPI document (declared: ${Object.keys(operation.responses).join(", ")}); body ${res.text.slice(0, 300)}`);
  }
  if (!res.headers.get("x-request-id")) throw new ContractViolation(`${where}: no X-Request-Id header`);
  const content = response.content;
  if (!content) return;
  const type = (res.headers.get("content-type") ?? "").split(";")[0]!.trim();
  if (!(type in content)) throw new ContractViolation(`${where}: Content-Type ${type || "(none)"} not declared (${Object.keys(content).join(", ")})`);
  if (type !== "application/json") return;
  const ref = `openapi.json#/${pointer("paths", op.path, op.method, "responses", String(res.status), "content", type, "schema")}`;
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    validators.set(ref, validate);
  }
  if (!validate(res.body)) {
    const errors = (validate.errors ?? []).slice(0, 5).map((e: { instancePath: string; message?: string; params?: unknown }) => `${e.instancePath || "/"} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`);
    throw new ContractViolation(`${where}: body does not match the OpenAPI document:\n  ${errors.join("\n  ")}\n  body: ${res.text.slice(0, 500)}`);
  }
}
