import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { createTestDatabase, prepareDatabaseTemplate } from "./database";
import { LOCAL_RECEIVER_NETWORKS } from "./receiver";
import { startServer } from "./server";

export type SharedServer = { url: string; env: Record<string, string> };

/** The shared server's output, kept after the run (a failed test's 500 is explained here, by its request id). */
export const SHARED_SERVER_LOG = path.join(os.tmpdir(), "svc-test-shared-server.log");

declare module "vitest" {
  export interface ProvidedContext {
    server: SharedServer;
    /** The run's directory of contract records (support/contract-coverage.ts). */
    contractRecords: string;
  }
}

/**
 * One production server for the integration tests, on a fresh database
 * (PostgreSQL when TEST_DATABASE_URL is set, else embedded PGlite). Its rate
 * limit is raised so tests do not trip over each other; the rate-limit tests
 * start servers of their own with the spec's 150 per minute; likewise its
 * sign-ups per IP (abuse-limits.test.ts tests the production default). It
 * sends no mail (tests rely on that: invitations return their links), so
 * its portal sign-ups are verified as the operator does it
 * (support/portal.ts); the mailed link is tested on servers with SMTP.
 */
export default async function setup(project: TestProject) {
  // The shared server starts on an empty database (a first install); the
  // databases tests make for themselves start migrated (support/database.ts).
  const [database, template] = await Promise.all([createTestDatabase("shared", { empty: true }), prepareDatabaseTemplate()]);
  project.provide("databaseTemplate", template.template);
  const env: Record<string, string> = {
    ...database.env,
    ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    REDIS_KEY_PREFIX: `svc-test-${randomBytes(4).toString("hex")}:`,
    // Tests deliver webhooks to receivers on 127.0.0.1: allowed by configuration, as an operator would.
    ...LOCAL_RECEIVER_NETWORKS,
  };
  // Webhook retries every second instead of minutes to hours, so retry tests finish.
  const server = await startServer({
    ...env,
    RATE_LIMIT_PER_MINUTE: "1000000",
    PORTAL_SIGN_UPS_PER_IP_PER_HOUR: "1000000",
    WEBHOOK_RETRY_SCHEDULE: "0,1,1,1",
    // WEBHOOK_POLL_MS stays the default (250 ms): polling every 100 ms cost this idle server about 7% of a core.
    // Check credentials on every request, so revocation is visible at once.
    CREDENTIAL_CACHE_MS: "0",
    VISION_PRELOAD: "on",
  }, { logFile: SHARED_SERVER_LOG });
  // Every answer the tests' contract check matches is recorded here by the
  // test workers (separate processes); the summary reporter reads the records
  // after the run (onTestRunEnd, before this teardown) to check that every
  // documented operation was answered with a success.
  const contractRecords = mkdtempSync(path.join(os.tmpdir(), "svc-contract-"));
  project.provide("contractRecords", contractRecords);
  project.provide("server", { url: server.url, env: { ...env, WEBHOOK_RETRY_SCHEDULE: "0,1,1,1" } });
  return async () => {
    rmSync(contractRecords, { recursive: true, force: true });
    await server.stop();
    await database.drop();
    await template.drop();
  };
}
