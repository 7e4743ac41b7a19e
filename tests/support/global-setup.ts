import { randomBytes } from "node:crypto";
import type { TestProject } from "vitest/node";
import { createTestDatabase } from "./database";
import { startServer } from "./server";

export type SharedServer = { url: string; env: Record<string, string> };

declare module "vitest" {
  export interface ProvidedContext {
    server: SharedServer;
  }
}

/**
 * One production server for the integration tests, on a fresh database
 * (PostgreSQL when TEST_DATABASE_URL is set, else embedded PGlite). Its rate
 * limit is raised so tests do not trip over each other; the rate-limit tests
 * start servers of their own with the spec's 150 per minute.
 */
export default async function setup(project: TestProject) {
  const database = await createTestDatabase("shared");
  const env: Record<string, string> = {
    ...database.env,
    ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    REDIS_KEY_PREFIX: `svc-test-${randomBytes(4).toString("hex")}:`,
  };
  // Webhook retries every second instead of minutes to hours, so retry tests finish.
  const server = await startServer({
    ...env,
    RATE_LIMIT_PER_MINUTE: "1000000",
    WEBHOOK_RETRY_SCHEDULE: "0,1,1,1",
    WEBHOOK_POLL_MS: "100",
    // Check credentials on every request, so revocation is visible at once.
    CREDENTIAL_CACHE_MS: "0",
    VISION_PRELOAD: "on",
  });
  project.provide("server", { url: server.url, env: { ...env, WEBHOOK_RETRY_SCHEDULE: "0,1,1,1" } });
  return async () => {
    await server.stop();
    await database.drop();
  };
}
