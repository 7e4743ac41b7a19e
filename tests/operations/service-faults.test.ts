import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../support/database";
import { cleanupLater, expectConsistent, FAULT_TEST_MS, faultCleanups, install, loadUnderway, people, PEOPLE, tenants } from "../support/fault-load";
import { privateServicesAvailable, startPrivatePostgres, startPrivateRedis } from "../support/private-services";

/**
 * PostgreSQL crashed and Redis stopped under load, each a private server
 * this file starts (so it runs the same whatever database the suite uses):
 * the service answers 503 or keeps answering meanwhile, then serves again
 * with no one restarting it, and nothing is lost or charged twice
 * (tests/support/fault-load.ts says what is checked).
 */
afterAll(faultCleanups);

describe.skipIf(!privateServicesAvailable())("faults of the services under load", () => {
  it("PostgreSQL crashed and restarted under load: answers 503 meanwhile, then serves again by itself", async () => {
    const pg = await startPrivatePostgres();
    cleanupLater(() => pg.destroy());
    const i = await install("fault-pg", { DATABASE_URL: pg.url, DATA_DIR: (await createTestDatabase("fault-pg-dir")).env.DATA_DIR ?? "" });
    const t = await tenants(i);
    const tag = `pg-${randomBytes(3).toString("hex")}`;
    const load = people(i, t.apps, PEOPLE, tag);
    await loadUnderway(i, tag);
    pg.crash();
    const during = await fetch(`${i.url}/api/v2/workflows`, { headers: { "X-API-Key": t.apps[0]!.apiKey } });
    const duringBody = await during.json();
    await new Promise((r) => setTimeout(r, 2000)); // the outage lasts 2 s (the fault itself, not a wait for anything)
    pg.start();
    const { results, seen } = await load;
    expect(results).toHaveLength(PEOPLE);
    expect(during.status).toBe(503);
    expect(duringBody).toMatchObject({ success: false, error: { code: "service_unavailable" } });
    expect(during.headers.get("retry-after")).toBeTruthy();
    const figures = await expectConsistent(i, t, tag, PEOPLE);
    console.log(`fault PostgreSQL restart: answers ${JSON.stringify(Object.fromEntries(seen))}; events ${JSON.stringify(figures)}`);
    expect([...seen.keys()].some((s) => Number(s) >= 500 || s === "network error")).toBe(true);
  }, FAULT_TEST_MS);

  it("Redis stopped and started under load: the service keeps answering, then uses Redis again", async () => {
    const redis = await startPrivateRedis();
    cleanupLater(() => redis.stop());
    const i = await install("fault-redis", { REDIS_URL: redis.url, REDIS_KEY_PREFIX: `fault-${randomBytes(3).toString("hex")}:` });
    const t = await tenants(i);
    const tag = `redis-${randomBytes(3).toString("hex")}`;
    const load = people(i, t.apps, PEOPLE, tag);
    await loadUnderway(i, tag);
    await redis.stop();
    const during = await fetch(`${i.url}/api/v2/workflows`, { headers: { "X-API-Key": t.apps[0]!.apiKey } });
    await new Promise((r) => setTimeout(r, 2000)); // the outage lasts 2 s (the fault itself, not a wait for anything)
    await redis.start();
    const { results, seen } = await load;
    expect(results).toHaveLength(PEOPLE);
    expect(during.status).toBeLessThan(500);
    const figures = await expectConsistent(i, t, tag, PEOPLE);
    const health = await fetch(`${i.url}/api/health`);
    expect(health.status).toBe(200);
    console.log(`fault Redis restart: answers ${JSON.stringify(Object.fromEntries(seen))}; events ${JSON.stringify(figures)}`);
  }, FAULT_TEST_MS);
});
