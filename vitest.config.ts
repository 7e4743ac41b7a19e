import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

/**
 * Two projects: `unit` (pure library code: no build, no server; the fast
 * path `npm run test:unit`) and `integration` (the real server on a fresh
 * database, started once by the global setup). `npm test` runs both.
 *
 * The integration project's folders say which database they depend on:
 * - tests/integration: what can differ between the embedded PGlite and
 *   PostgreSQL with Redis (queries, locks, transactions, rate limits, jobs,
 *   webhooks); CI runs it on both (`npm test -- tests/integration`);
 * - tests/browser (pages in Chromium), tests/checks (vision and document
 *   checks judged over HTTP) and tests/operations (processes and services
 *   started, stopped and broken: private databases of their own): the same
 *   on any database, so CI runs them once, with the embedded default.
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
          include: ["tests/integration/**/*.test.ts", "tests/browser/**/*.test.ts", "tests/checks/**/*.test.ts", "tests/operations/**/*.test.ts"],
          globalSetup: ["tests/support/global-setup.ts"],
        },
      },
    ],
  },
});
