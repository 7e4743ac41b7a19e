import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TestModule, TestSpecification, Vitest } from "vitest/node";
import {
  contractCoverage,
  type ContractRecord,
  coverageMessage,
  documentedOperations,
  isSuccess,
  readRecords,
  writeRecord,
} from "../support/contract-coverage";
import SummaryReporter from "../support/summary-reporter";

/**
 * The contract-coverage check (support/contract-coverage.ts, run by the
 * summary reporter after the whole integration project): it fails when an
 * operation of the document has no success answer, or an answer's status is
 * not declared or did not match; it passes when every operation has one.
 */
const doc = JSON.parse(readFileSync(path.join(process.cwd(), "sdk/openapi.json"), "utf8"));
const operations = documentedOperations(doc);

/** One matching success answer per documented operation (its first declared 2xx/3xx). */
const allSucceeded = (): ContractRecord[] =>
  operations.map((op) => ({ operation: op.operation, status: Number(op.statuses.find((s) => isSuccess(Number(s)))) }));

let dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "contract-coverage-test-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

describe("contract coverage", () => {
  it("reads every operation of the document, each with a documented success", () => {
    expect(operations.length).toBeGreaterThan(40);
    expect(operations).toContainEqual(expect.objectContaining({ operation: "oidcAuthorizePost", method: "POST", path: "/api/auth/oidc/authorize" }));
    for (const op of operations) expect(op.statuses.some((s) => isSuccess(Number(s))), op.operation).toBe(true);
  });

  it("passes when every operation has a success answer that matched", () => {
    const problems = contractCoverage(doc, allSucceeded());
    expect(problems).toEqual({ neverSucceeded: [], mismatches: [] });
    expect(coverageMessage(problems, operations.length)).toBeNull();
  });

  it("fails, naming the operation, when one has no success answer (only errors, or nothing)", () => {
    const records = allSucceeded().filter((r) => r.operation !== "oidcAuthorizePost" && r.operation !== "listWorkflows");
    records.push({ operation: "listWorkflows", status: 401 }, { operation: "listWorkflows", status: 400 });
    const problems = contractCoverage(doc, records);
    expect(problems.neverSucceeded.map((op) => op.operation)).toEqual(["listWorkflows", "oidcAuthorizePost"]);
    expect(problems.mismatches).toEqual([]);
    const message = coverageMessage(problems, operations.length)!;
    expect(message).toContain(`2 of ${operations.length} documented operations were never answered with a success`);
    expect(message).toContain("  listWorkflows: GET /api/v2/workflows (documented success: 200)");
    expect(message).toContain("  oidcAuthorizePost: POST /api/auth/oidc/authorize (documented success: 303)");
  });

  it("a redirect is the success of authorize; a success answer that did not match the document counts for nothing", () => {
    const authorize = allSucceeded().find((r) => r.operation === "oidcAuthorize")!;
    expect(authorize.status).toBe(303);
    const records = allSucceeded().filter((r) => r.operation !== "getWorkflow");
    records.push({ operation: "getWorkflow", status: 200, violation: "GET /api/v2/workflows/{id} → 200: body does not match the OpenAPI document:\n  / must NOT have additional properties" });
    const problems = contractCoverage(doc, records);
    expect(problems.neverSucceeded.map((op) => op.operation)).toEqual(["getWorkflow"]);
    expect(problems.mismatches).toEqual([{ operation: "getWorkflow", status: 200, reason: expect.stringContaining("body does not match") }]);
    expect(coverageMessage(problems, operations.length)).toContain("  getWorkflow → 200: GET /api/v2/workflows/{id} → 200: body does not match the OpenAPI document:");
  });

  it("fails on a recorded status the document does not declare, or an unknown operation", () => {
    const problems = contractCoverage(doc, [...allSucceeded(), { operation: "listWorkflows", status: 418 }, { operation: "noSuchOperation", status: 200 }]);
    expect(problems.neverSucceeded).toEqual([]);
    expect(problems.mismatches).toEqual([
      { operation: "listWorkflows", status: 418, reason: expect.stringMatching(/^status not declared \(declared: 200, /) },
      { operation: "noSuchOperation", status: 200, reason: "operation not in the document" },
    ]);
  });

  it("collects the records every process wrote to the run's directory", () => {
    const dir = tempDir();
    const [first, ...rest] = allSucceeded();
    writeRecord(dir, first!);
    writeRecord(dir, first!); // written once per process
    expect(readFileSync(path.join(dir, `answers-${process.pid}.jsonl`), "utf8").trim().split("\n")).toHaveLength(1);
    // Another worker's file.
    writeFileSync(path.join(dir, "answers-1.jsonl"), rest.map((r) => JSON.stringify(r)).join("\n") + "\n");
    expect(contractCoverage(doc, readRecords(dir))).toEqual({ neverSucceeded: [], mismatches: [] });
  });
});

describe("the summary reporter runs the check after the whole integration project only", () => {
  const files = ["/repo/tests/integration/a.test.ts", "/repo/tests/integration/b.test.ts"];

  async function run(scheduled: string[], records: ContractRecord[], env: { forced?: boolean } = {}) {
    const dir = tempDir();
    for (const r of records) writeRecord(dir, r);
    const project = {
      name: "integration",
      globTestFiles: async () => ({ testFiles: files, typecheckTestFiles: [] }),
      getProvidedContext: () => ({ contractRecords: dir }),
    };
    const vitest = { projects: [project], config: { root: process.cwd() } } as unknown as Vitest;
    const reporter = new SummaryReporter();
    reporter.onInit(vitest);
    await reporter.onTestRunStart(scheduled.map((moduleId) => ({ moduleId, project }) as unknown as TestSpecification));
    const out: string[] = [];
    const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => (out.push(String(chunk)), true));
    const exitCode = process.exitCode;
    vi.stubEnv("CONTRACT_COVERAGE", env.forced ? "1" : "");
    try {
      reporter.onTestRunEnd([] as TestModule[], [], "passed");
      await new Promise((resolve) => setImmediate(resolve));
      return { output: out.join(""), exitCode: process.exitCode };
    } finally {
      write.mockRestore();
      vi.unstubAllEnvs();
      process.exitCode = exitCode;
    }
  }

  it("a whole run with an operation never answered with a success: one failed, exit status 1, the operation listed", async () => {
    const { output, exitCode } = await run(files, allSucceeded().filter((r) => r.operation !== "oidcLogoutPost"));
    expect(output).toContain("  oidcLogoutPost: POST /api/auth/oidc/logout (documented success: 200, 303)");
    expect(output.trimEnd().split("\n").at(-1)).toBe("0 passed, 1 failed");
    expect(exitCode).toBe(1);
  });

  it("a whole run where every operation succeeded passes", async () => {
    const { output, exitCode } = await run(files, allSucceeded());
    expect(output).toContain(`Contract coverage: all ${operations.length} documented operations were answered with a success`);
    expect(output.trimEnd().split("\n").at(-1)).toBe("0 passed, 0 failed");
    expect(exitCode).not.toBe(1);
  });

  it("a run of some integration files is not checked, unless CONTRACT_COVERAGE=1", async () => {
    const partial = await run([files[0]!], []);
    expect(partial.output).toContain("Contract coverage: not checked (1 of 2 integration test files ran");
    expect(partial.output.trimEnd().split("\n").at(-1)).toBe("0 passed, 0 failed");
    expect(partial.exitCode).not.toBe(1);
    const forced = await run([files[0]!], [], { forced: true });
    expect(forced.output).toContain(`${operations.length} of ${operations.length} documented operations were never answered`);
    expect(forced.output.trimEnd().split("\n").at(-1)).toBe("0 passed, 1 failed");
  });
});
