import { afterAll, describe, expect, it } from "vitest";
import { createSession, createTenant, createWorkflow, postSession, shared } from "../support/api";
import { sql } from "../support/database";
import { setWalletBalance, useServerDatabase } from "../support/domain";
import { startServer, type RunningServer } from "../support/server";

/** Per-check billing (spec 1.6, 8): each check is charged once, when it runs; a balance never goes negative. */
useServerDatabase();

const LIVENESS_CENTS = 15;

async function balance(organizationId: string): Promise<number> {
  const [row] = await sql(shared().env, `SELECT balance_cents FROM wallets WHERE organization_id = $1`, [organizationId]);
  return row.balance_cents;
}
async function charges(organizationId: string) {
  return sql(
    shared().env,
    `SELECT l.amount_cents, l.reference, l.balance_after_cents FROM ledger_entries l JOIN wallets w ON w.id = l.wallet_id
      WHERE w.organization_id = $1 AND l.kind = 'check_charge' ORDER BY l.created_at`,
    [organizationId],
  );
}

describe("per-check billing", () => {
  it("a check is charged once when it runs, however often it is retried, also concurrently", async () => {
    const { recordCheckResult } = await import("@/lib/sessions/record-check");
    const t = await createTenant();
    const wf = await createWorkflow(t, ["liveness", "location"]);
    const s = await createSession(t, { workflow_id: wf });
    expect(await balance(t.organizationId)).toBe(10000); // creating a session charges nothing
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        recordCheckResult({ sessionId: s.session_id, type: "liveness", status: i % 2 ? "passed" : "failed" }),
      ),
    );
    expect(results.filter((r) => r.charged)).toHaveLength(1);
    expect(await charges(t.organizationId)).toEqual([
      { amount_cents: -LIVENESS_CENTS, reference: `check:${s.session_id}:liveness`, balance_after_cents: 10000 - LIVENESS_CENTS },
    ]);
    expect(await balance(t.organizationId)).toBe(10000 - LIVENESS_CENTS);
    const [row] = await sql(shared().env, `SELECT attempts FROM check_results WHERE session_id = $1 AND type = 'liveness'`, [s.session_id]);
    expect(row.attempts).toBe(10);
  });

  it("20 concurrent sessions on a wallet that pays for 5: 5 run, 15 get 402, the balance never goes negative", async () => {
    const { recordCheckResult } = await import("@/lib/sessions/record-check");
    const t = await createTenant();
    const wf = await createWorkflow(t, ["liveness"]);
    await setWalletBalance(t.organizationId, 5 * LIVENESS_CENTS);
    const sessions = await Promise.all(Array.from({ length: 20 }, () => createSession(t, { workflow_id: wf })));
    const outcomes = await Promise.allSettled(
      sessions.map((s) => recordCheckResult({ sessionId: s.session_id, type: "liveness", status: "passed" })),
    );
    const ok = outcomes.filter((o) => o.status === "fulfilled");
    const refused = outcomes.filter((o) => o.status === "rejected") as PromiseRejectedResult[];
    expect(ok).toHaveLength(5);
    expect(refused).toHaveLength(15);
    expect(refused.every((r) => (r.reason as { code: string }).code === "insufficient_funds")).toBe(true);
    expect(await balance(t.organizationId)).toBe(0);
    const rows = await charges(t.organizationId);
    expect(rows).toHaveLength(5);
    expect(rows.every((r) => r.balance_after_cents >= 0)).toBe(true);
    // A refused check left no result behind.
    const [{ n }] = await sql(shared().env, `SELECT count(*)::int AS n FROM check_results c JOIN sessions s ON s.id = c.session_id WHERE s.app_id = $1`, [t.appId]);
    expect(n).toBe(5);
  });

  it("a ledger row and the wallet's updated_at take their time from the clock, not the database", async () => {
    const { setClock } = await import("@/lib/clock");
    const t = await createTenant();
    const at = new Date("2031-05-06T07:08:09.123Z");
    setClock({ now: () => at });
    try {
      await setWalletBalance(t.organizationId, 4321);
    } finally {
      setClock(null);
    }
    const [row] = await sql(
      shared().env,
      `SELECT l.created_at, w.updated_at FROM ledger_entries l JOIN wallets w ON w.id = l.wallet_id
        WHERE w.organization_id = $1 AND l.kind = 'adjustment'`,
      [t.organizationId],
    );
    expect(row).toEqual({ created_at: at, updated_at: at });
  });
});

describe("CHECK_PRICES (README Billing)", () => {
  let server: RunningServer | undefined;
  afterAll(async () => server?.stop());

  it("a partial price list, the README's own example, overrides only the prices it names", async () => {
    server = await startServer({ ...shared().env, CHECK_PRICES: '{"liveness":0.2}' });
    const t = await createTenant();
    const wf = await createWorkflow(t, ["liveness", "face_match"]);
    const create = () => postSession(t, { workflow_id: wf }, {}, server!.url);
    // liveness 0.20 (overridden) + face_match 0.10 (default) = 0.30 USD
    await setWalletBalance(t.organizationId, 29);
    const refused = await create();
    expect(refused.status).toBe(402);
    expect(refused.body.error.message).toContain("0.30 USD");
    await setWalletBalance(t.organizationId, 30);
    expect((await create()).status).toBe(201);
  });
});
