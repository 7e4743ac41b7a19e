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

it("names the 10 slowest files of a whole run, slowest first, and nothing for a run of a few files", async () => {
  const { slowestFiles } = await import("../support/summary-reporter");
  type Module = Parameters<typeof slowestFiles>[0][number];
  const modules = Array.from({ length: 12 }, (_, i) => ({
    moduleId: `/repo/tests/integration/f${i}.test.ts`,
    diagnostic: () => ({ duration: i * 1000, collectDuration: 500, setupDuration: 0 }),
  })) as unknown as Module[];
  const lines = slowestFiles(modules, "/repo")!.split("\n");
  expect(lines[0]).toBe("The 10 slowest test files:");
  expect(lines).toHaveLength(11);
  expect(lines[1]).toMatch(/^ {2}tests\/integration\/f11\.test\.ts +11\.5 s$/);
  expect(lines[10]).toMatch(/f2\.test\.ts +2\.5 s$/);
  expect(slowestFiles(modules.slice(0, 3), "/repo")).toBeNull();
});
