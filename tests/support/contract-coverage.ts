import { appendFileSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * Which documented operations the integration tests really exercised.
 * `assertMatchesContract` (support/contract.ts) records every answer it
 * matches to an operation as one JSON line in a file of the run's record
 * directory (made by support/global-setup.ts, handed to the test workers,
 * which are separate processes, with `provide`/`inject`). After a run of the
 * whole integration project the summary reporter (support/summary-reporter.ts)
 * reads them all and fails the run, with the list, when an operation of the
 * document was never answered with a success or an answer did not match it.
 *
 * No vitest runtime import here: the reporter loads this file in vitest's
 * main process.
 */

export type ContractRecord = {
  /** The operationId, or "METHOD /path/{template}" for an operation without one. */
  operation: string;
  status: number;
  /** Why the answer did not match the document (the per-call check threw); absent when it matched. */
  violation?: string;
};

export type DocumentedOperation = {
  operation: string;
  method: string;
  path: string;
  statuses: string[];
  /** The operation object as the document has it (security, responses, ...). */
  definition: { operationId?: string; responses?: Record<string, unknown> } & Record<string, unknown>;
};

type Doc = { paths?: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>> };

/** The OpenAPI document's JSON copy, sdk/openapi.json (held equal to the one lib/openapi/ builds by the unit tests). */
export function readOpenApiCopy(root = process.cwd()): Doc & Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(root, "sdk/openapi.json"), "utf8"));
}

const METHODS = ["get", "post", "put", "patch", "delete"];

/** The name an operation is recorded under. */
export function operationName(method: string, pathTemplate: string, operationId: string | undefined): string {
  return operationId ?? `${method.toUpperCase()} ${pathTemplate}`;
}

export function documentedOperations(doc: Doc): DocumentedOperation[] {
  return Object.entries(doc.paths ?? {}).flatMap(([p, item]) =>
    Object.entries(item ?? {})
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({
        operation: operationName(method, p, op.operationId),
        method: method.toUpperCase(),
        path: p,
        statuses: Object.keys(op.responses ?? {}),
        definition: op,
      })),
  );
}

/**
 * A success answer: 2xx, or 3xx (the browser redirects of authorize and
 * logout, whose only success is a 303).
 */
export const isSuccess = (status: number) => status >= 200 && status < 400;

const seen = new Set<string>();

/**
 * Appends one record to this process's file in `dir` (one file per process,
 * so concurrent workers never write to the same file). An identical record
 * already written by this process is not written again.
 */
export function writeRecord(dir: string, record: ContractRecord): void {
  const line = JSON.stringify(record);
  const key = `${dir}\n${line}`;
  if (seen.has(key)) return;
  appendFileSync(path.join(dir, `answers-${process.pid}.jsonl`), `${line}\n`);
  seen.add(key);
}

export function readRecords(dir: string): ContractRecord[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".jsonl"))
    .flatMap((name) => readFileSync(path.join(dir, name), "utf8").split("\n"))
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as ContractRecord);
}

export type CoverageProblems = {
  /** Operations no test answer was a success for (that matched the document). */
  neverSucceeded: DocumentedOperation[];
  /** Recorded (operation, status) pairs the document does not declare, or answers that did not match it. */
  mismatches: Array<{ operation: string; status: number; reason: string }>;
};

/**
 * Compares the records of a run with the document: every operation needs a
 * success answer that matched the document, and every recorded answer must
 * be one the document declares and matched (the per-call check already
 * throws on a mismatch; this also catches one a test swallowed).
 */
export function contractCoverage(doc: Doc, records: ContractRecord[]): CoverageProblems {
  const operations = documentedOperations(doc);
  const byName = new Map(operations.map((op) => [op.operation, op]));
  const succeeded = new Set<string>();
  const mismatches: CoverageProblems["mismatches"] = [];
  const reported = new Set<string>();
  for (const r of records) {
    const op = byName.get(r.operation);
    const reason = !op
      ? "operation not in the document"
      : !op.statuses.includes(String(r.status))
        ? `status not declared (declared: ${op.statuses.join(", ")})`
        : r.violation;
    if (reason) {
      const key = `${r.operation} ${r.status} ${reason}`;
      if (!reported.has(key)) mismatches.push({ operation: r.operation, status: r.status, reason });
      reported.add(key);
    } else if (isSuccess(r.status)) {
      succeeded.add(r.operation);
    }
  }
  return { neverSucceeded: operations.filter((op) => !succeeded.has(op.operation)), mismatches };
}

/** The failure message, or null when there is nothing to report. */
export function coverageMessage(problems: CoverageProblems, total: number): string | null {
  const lines: string[] = [];
  if (problems.neverSucceeded.length) {
    lines.push(
      `Contract coverage: ${problems.neverSucceeded.length} of ${total} documented operations were never answered with a success (2xx, or 3xx for a redirect) that matched the OpenAPI document:`,
      ...problems.neverSucceeded.map((op) => {
        const successes = op.statuses.filter((s) => isSuccess(Number(s)));
        return `  ${op.operation}: ${op.method} ${op.path} (documented success: ${successes.join(", ") || "none"})`;
      }),
      "  Call each with valid input through api() (tests/support/api.ts), or check a raw fetch answer with recordAndCheck() (tests/support/contract.ts).",
    );
  }
  if (problems.mismatches.length) {
    lines.push(
      "Contract coverage: answers that do not match the OpenAPI document:",
      ...problems.mismatches.map((m) => `  ${m.operation} → ${m.status}: ${m.reason.split("\n")[0]}`),
    );
  }
  return lines.length ? lines.join("\n") : null;
}
