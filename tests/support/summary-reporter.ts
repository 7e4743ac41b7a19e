import type { Reporter, TestModule } from "vitest/node";

/** Prints `N passed, N failed[, N skipped]` alone on the very last line (CI reads it). */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else skipped++;
      }
      // A file that failed to load has no tests but is a failure.
      if (mod.state() === "failed" && [...mod.children.allTests()].length === 0) failed++;
    }
    failed += unhandledErrors.length;
    const tail = skipped ? `, ${skipped} skipped` : "";
    // Written after the default reporter's summary.
    setImmediate(() => process.stdout.write(`\n${passed} passed, ${failed} failed${tail}\n`));
  }
}
