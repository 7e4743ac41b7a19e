import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

/**
 * Two projects: `unit` (pure library code: no build, no server; the fast
 * path `npm run test:unit`) and `integration` (the real server on a fresh
 * database, started once by the global setup; tests/integration and
 * tests/browser). `npm test` runs both.
 */
export default defineConfig({
  resolve: { alias: { "@": root } },
  test: {
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: "forks",
    maxWorkers: 2,
    reporters: ["default", "./tests/support/summary-reporter.ts"],
    projects: [
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts", "tests/browser/**/*.test.ts"],
          globalSetup: ["tests/support/global-setup.ts"],
        },
      },
    ],
  },
});
