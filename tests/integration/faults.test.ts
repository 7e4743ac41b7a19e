import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sql } from "../support/database";
import { expectConsistent, FAULT_TEST_MS, faultCleanups, install, loadUnderway, people, PEOPLE, tenants } from "../support/fault-load";
import { startServer } from "../support/server";

/**
 * The web process killed with SIGKILL under load, on the test's database
 * (the embedded PGlite hosted by that very process, or PostgreSQL): while
 * people go through verification with a client that retries as the SDK
 * does and a webhook receiver fails in every way, nothing is lost or
 * charged twice (tests/support/fault-load.ts says what is checked). The
 * faults of PostgreSQL and Redis themselves are in
 * tests/operations/service-faults.test.ts.
 */
afterAll(faultCleanups);

describe("faults under load", () => {
  it("the web process killed with SIGKILL mid-load, then started again by its supervisor: nothing lost or charged twice", async () => {
    const i = await install("fault-kill");
    const t = await tenants(i);
    const tag = `kill-${randomBytes(3).toString("hex")}`;
    // A session its person walks away from while the process dies.
    const abandoned = await fetch(`${i.url}/api/v2/session`, {
      method: "POST",
      headers: { "X-API-Key": t.apps[0]!.apiKey, "content-type": "application/json" },
      body: JSON.stringify({ workflow_id: t.apps[0]!.workflowId, vendor_data: "abandoned" }),
    }).then(async (res) => ((await res.json()) as { data: { session_id: string } }).data.session_id);
    const load = people(i, t.apps, PEOPLE, tag);
    await loadUnderway(i, tag);
    await i.server.stopHard();
    i.server = await startServer(i.env, { port: i.port, logFile: path.join(os.tmpdir(), "svc-fault-kill-restarted.log") });
    const { results, seen } = await load;
    expect(results).toHaveLength(PEOPLE);
    const figures = await expectConsistent(i, t, tag, PEOPLE);
    console.log(`fault kill -9: answers ${JSON.stringify(Object.fromEntries(seen))}; events ${JSON.stringify(figures)}`);
    expect(seen.get("network error") ?? 0).toBeGreaterThan(0); // the kill did land in the middle of the load

    // No session stays open past its expiry: the restarted process runs the session expiry job (a pg-boss
    // schedule, every minute), which expires the abandoned one at its next tick.
    await sql(i.env, `UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id = $1`, [abandoned]);
    const statusOf = async () => (await sql(i.env, `SELECT status FROM sessions WHERE id = $1`, [abandoned]))[0].status;
    const deadline = Date.now() + 150_000;
    while ((await statusOf()) !== "EXPIRED" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    expect(await statusOf()).toBe("EXPIRED");
  }, FAULT_TEST_MS);
});
