import path from "node:path";
import type { Reporter, TestModule, TestRunEndReason, TestSpecification, Vitest } from "vitest/node";
import { contractCoverage, coverageMessage, documentedOperations, readOpenApiCopy, readRecords } from "./contract-coverage";

/**
 * Prints `N passed, N failed[, N skipped]` alone on the very last line (CI reads it).
 *
 * It also runs the contract-coverage check (support/contract-coverage.ts):
 * after a run of the whole integration project, every operation of the
 * OpenAPI document must have been answered with a success somewhere in the
 * suite. It lives here, not in the global teardown or in a test, because only
 * here it can (1) run after every test file of every worker has finished: a
 * "last" test file runs in parallel with others on the second worker; (2) see
 * which files this run scheduled, so running a few files
 * (`npm test -- tests/integration/x.test.ts`) is not a coverage failure; and
 * (3) count the failure in the line CI parses: vitest runs the global
 * teardown only after this reporter's onTestRunEnd, and an error thrown there
 * is merely logged, changing neither that line nor the exit status. The check
 * counts as one failed test and sets the exit status to 1.
 * `CONTRACT_COVERAGE=1` checks a partial run too (to see what a set of files covers).
 */
export default class SummaryReporter implements Reporter {
  private vitest: Vitest | undefined;
  private integration: { scheduled: number; total: number; filtered: boolean } | undefined;

  onInit(vitest: Vitest) {
    this.vitest = vitest;
  }

  async onTestRunStart(specifications: ReadonlyArray<TestSpecification>) {
    this.integration = undefined;
    const project = this.vitest?.projects.find((p) => p.name === "integration");
    if (!project) return;
    const scheduled = new Set(specifications.filter((s) => s.project.name === "integration").map((s) => s.moduleId));
    if (scheduled.size === 0) return;
    const { testFiles } = await project.globTestFiles();
    this.integration = {
      scheduled: testFiles.filter((f) => scheduled.has(f)).length,
      total: testFiles.length,
      // Tests filtered by name, or one shard of the files: not the whole project either.
      filtered: Boolean(this.vitest!.config.testNamePattern || this.vitest!.config.shard),
    };
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>, reason?: TestRunEndReason) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      let failedHere = 0;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failedHere++;
        else skipped++;
      }
      // A file that failed without a failed test (it did not load, or a
      // beforeAll or afterAll threw, leaving its tests skipped) is a failure.
      if (mod.state() === "failed" && failedHere === 0) failedHere = 1;
      failed += failedHere;
    }
    failed += unhandledErrors.length;
    const coverage = reason === "interrupted" ? null : this.contractCoverage(failed);
    if (coverage?.failed) {
      failed++;
      process.exitCode = 1;
    }
    const tail = skipped ? `, ${skipped} skipped` : "";
    const slowest = slowestFiles(testModules, this.vitest?.config.root ?? process.cwd());
    // Written after the default reporter's summary.
    setImmediate(() => {
      if (slowest) process.stdout.write(`\n${slowest}\n`);
      if (coverage) process.stdout.write(`\n${coverage.message}\n`);
      process.stdout.write(`\n${passed} passed, ${failed} failed${tail}\n`);
    });
  }

  /** The contract-coverage verdict of this run, or null when it is not checked (no integration file ran). */
  private contractCoverage(failedTests: number): { failed: boolean; message: string } | null {
    const run = this.integration;
    const project = this.vitest?.projects.find((p) => p.name === "integration");
    if (!run || !project) return null;
    const forced = process.env.CONTRACT_COVERAGE === "1";
    if ((run.scheduled < run.total || run.filtered) && !forced) {
      const why = run.filtered ? "tests filtered by name or shard" : `${run.scheduled} of ${run.total} integration test files ran`;
      return { failed: false, message: `Contract coverage: not checked (${why}; it needs the whole integration project).` };
    }
    const dir = project.getProvidedContext().contractRecords;
    if (!dir) return { failed: false, message: "Contract coverage: not checked (the integration global setup did not run)." };
    let total: number;
    let message: string | null;
    try {
      const doc = readOpenApiCopy(this.vitest!.config.root);
      total = documentedOperations(doc).length;
      message = coverageMessage(contractCoverage(doc, readRecords(dir)), total);
    } catch (error) {
      // Counted as a failure: a check that cannot run must not pass.
      return { failed: true, message: `Contract coverage: the check could not run: ${error instanceof Error ? error.message : String(error)}` };
    }
    if (!message) return { failed: false, message: `Contract coverage: all ${total} documented operations were answered with a success that matched the OpenAPI document.` };
    const notes = [
      ...(failedTests ? [`${failedTests} failed tests: calls they did not reach are missing above`] : []),
      ...(forced ? [`CONTRACT_COVERAGE=1: ${run.scheduled} of ${run.total} integration test files ran`] : []),
    ];
    const note = notes.length ? `\n  (${notes.join("; ")}.)` : "";
    return { failed: true, message: `${message}${note}` };
  }
}

/** The 10 test files that took longest (their tests, hooks and import), for CI's log; null for a run of fewer than 10 files. */
export function slowestFiles(testModules: ReadonlyArray<TestModule>, root: string, count = 10): string | null {
  if (testModules.length < count) return null;
  const timed = testModules
    .map((mod) => {
      const d = mod.diagnostic();
      return { file: path.relative(root, mod.moduleId), ms: d.duration + d.collectDuration + d.setupDuration };
    })
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count);
  const width = Math.max(...timed.map((t) => t.file.length));
  return [`The ${count} slowest test files:`, ...timed.map((t) => `  ${t.file.padEnd(width)}  ${(t.ms / 1000).toFixed(1).padStart(7)} s`)].join("\n");
}
