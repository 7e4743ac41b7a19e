import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

/**
 * The last line CI reads (tests/support/summary-reporter.ts): a file whose
 * beforeAll throws has only skipped tests, yet the run failed, so the line
 * must say so. Runs vitest on two fixture files in a child process.
 */
it("counts a file whose beforeAll failed as a failure in the last line", () => {
  const config = fileURLToPath(new URL("../fixtures/summary-reporter/vitest.config.ts", import.meta.url));
  const run = spawnSync(process.execPath, [fileURLToPath(new URL("../../node_modules/vitest/vitest.mjs", import.meta.url)), "run", "--config", config], {
    encoding: "utf8",
    env: { ...process.env, CI: "true" },
  });
  const lines = run.stdout.trim().split("\n");
  expect(lines.at(-1), run.stdout + run.stderr).toBe("1 passed, 1 failed, 1 skipped");
  expect(run.status).not.toBe(0);
});
