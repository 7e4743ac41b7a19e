import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { api, createTenant, shared, type Tenant } from "../support/api";
import { sql } from "../support/database";
import { setWalletBalance, useServerDatabase } from "../support/domain";

/**
 * Seats and billing of the organization API (spec 2.8, 3.2, 8; docs/organization-api.md
 * "Seats and billing"). The run bills every due subscription of the shared
 * database, so each test backdates its own organization's subscription and
 * runs at instants (lib/clock.ts) when no subscription started by another
 * test (now, 14 days of trial) is due; and asserts only on its own
 * organizations. Seats stay constant within a test, so the server's own
 * scheduled run (at the real now) would close the same periods the same way.
 */
useServerDatabase();

const DAY = 86_400_000;
const MINUTE = 60_000;

afterEach(async () => {
  const { setClock } = await import("@/lib/clock");
  setClock(null);
});

function billing(t: Pick<Tenant, "clientId" | "clientSecret">, headers?: Record<string, string>) {
  return api("GET", "/api/sdk/billing", { headers: headers ?? { "X-Client-Id": t.clientId, "X-Client-Secret": t.clientSecret } });
}

async function addMember(organizationId: string, status: string, role = "member") {
  const memberId = `vmem_${randomBytes(12).toString("hex")}`;
  await sql(
    shared().env,
    `INSERT INTO members (member_id, organization_id, email, role, status, updated_at) VALUES ($1, $2, $3, $4, $5, now())`,
    [memberId, organizationId, `${memberId}@example.com`, role, status],
  );
}

async function startSubscription(organizationId: string, at: Date) {
  const { db } = await import("@/lib/db/client");
  const { ensureSubscription } = await import("@/lib/org/billing/subscription");
  const prisma = await db();
  return prisma.$transaction((tx) => ensureSubscription(tx, organizationId, at));
}

/** One billing run at `at`, with the clock there too (ledger rows take their time from it). */
async function runAt(at: Date) {
  const { setClock } = await import("@/lib/clock");
  const { runSeatBilling } = await import("@/lib/org/billing/run");
  setClock({ now: () => at });
  try {
    return await runSeatBilling(at);
  } finally {
    setClock(null);
  }
}

async function invoices(organizationId: string) {
  return sql(
    shared().env,
    `SELECT id, period_start, period_end, seats, price_per_seat_cents, amount_cents, status, paid_at, created_at
       FROM seat_invoices WHERE organization_id = $1 ORDER BY period_start`,
    [organizationId],
  );
}

async function seatCharges(organizationId: string) {
  return sql(
    shared().env,
    `SELECT l.amount_cents, l.reference FROM ledger_entries l JOIN wallets w ON w.id = l.wallet_id
      WHERE w.organization_id = $1 AND l.kind = 'seat_charge' ORDER BY l.created_at, l.id`,
    [organizationId],
  );
}

async function balance(organizationId: string): Promise<number> {
  const [row] = await sql(shared().env, `SELECT balance_cents FROM wallets WHERE organization_id = $1`, [organizationId]);
  return row.balance_cents;
}

async function subscription(organizationId: string) {
  const [row] = await sql(shared().env, `SELECT * FROM org_subscriptions WHERE organization_id = $1`, [organizationId]);
  return row;
}

/**
 * A backdated subscription whose trial and first paid period have ended and
 * whose second ends in the next `secondEndWithinDays` days (before any trial
 * started now ends): its start and its three period ends.
 */
async function backdatedTimeline(secondEndWithinDays: number) {
  const { addMonthsClamped, nextPeriodEnd } = await import("@/lib/org/billing/periods");
  const trialEnd = addMonthsClamped(new Date(Date.now() + secondEndWithinDays * DAY), -2);
  const firstEnd = nextPeriodEnd(trialEnd, trialEnd);
  const secondEnd = nextPeriodEnd(trialEnd, firstEnd);
  return { start: new Date(trialEnd.getTime() - 14 * DAY), trialEnd, firstEnd, secondEnd };
}

describe("GET /api/sdk/billing", () => {
  it("needs the organization's client credentials", async () => {
    const t = await createTenant(shared().env, "production");
    expect((await billing(t, {})).status).toBe(401);
    expect((await billing(t, { "X-Client-Id": t.clientId, "X-Client-Secret": "cs_live_wrong" })).status).toBe(401);
    expect((await billing(t)).status).toBe(200);
  });

  it("before any subscription, then during the trial (production app)", async () => {
    const t = await createTenant(shared().env, "production");
    const before = await billing(t);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({
      success: true,
      data: { subscription: null, seats: 0, estimated_next_charge: 0, currency: "USD", balance: 100, invoices: [] },
    });

    for (const status of ["active", "active", "invited", "link_sent", "deactivated"]) await addMember(t.organizationId, status);
    await addMember(t.organizationId, "active", "admin"); // any role is a seat
    const started = new Date();
    expect(await startSubscription(t.organizationId, started)).toEqual({ created: true });
    expect(await startSubscription(t.organizationId, new Date(started.getTime() + DAY))).toEqual({ created: false }); // idempotent

    const during = await billing(t);
    expect(during.status).toBe(200);
    const trialEnds = new Date(started.getTime() + 14 * DAY).toISOString();
    expect(during.body.data).toEqual({
      subscription: {
        plan: "seats",
        status: "trialing",
        price_per_seat: 0.99,
        in_trial: true,
        trial_ends_at: trialEnds,
        current_period_end: trialEnds,
      },
      seats: 3,
      estimated_next_charge: 2.97,
      currency: "USD",
      balance: 100,
      invoices: [],
    });
    // Billing during the trial writes nothing.
    await runAt(new Date(started.getTime() + MINUTE));
    expect(await invoices(t.organizationId)).toEqual([]);
  });
});

describe("the seat billing run", () => {
  it("bills each ended period once in arrears (none for the trial), charging the wallet, also when repeated or concurrent", async () => {
    const t = await createTenant(shared().env, "production");
    const org = t.organizationId;
    for (const status of ["active", "active", "invited", "link_sent", "deactivated"]) await addMember(org, status);
    await addMember(org, "active", "developer");
    const { start, trialEnd, firstEnd, secondEnd } = await backdatedTimeline(4);
    expect(firstEnd.getTime()).toBeLessThan(Date.now());
    expect(secondEnd.getTime()).toBeGreaterThan(Date.now());
    await startSubscription(org, start);

    // The trial ends: the next period starts, no invoice.
    await runAt(new Date(trialEnd.getTime() + MINUTE));
    expect(await invoices(org)).toEqual([]);
    const afterTrial = await subscription(org);
    expect(afterTrial.current_period_start).toEqual(trialEnd);
    expect(afterTrial.current_period_end).toEqual(firstEnd);
    expect(await seatCharges(org)).toEqual([]);

    // The first paid period ends: one invoice of the 3 active members, paid from the wallet.
    const firstRun = new Date(firstEnd.getTime() + MINUTE);
    await runAt(firstRun);
    await runAt(firstRun); // repeated at the same instant: nothing more
    let rows = await invoices(org);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ period_start: trialEnd, period_end: firstEnd, seats: 3, price_per_seat_cents: 99, amount_cents: 297, status: "paid" });
    expect(await seatCharges(org)).toEqual([{ amount_cents: -297, reference: `seat_invoice:${rows[0].id}` }]);
    expect(await balance(org)).toBe(10000 - 297);

    // The second period: two concurrent runs write one invoice and charge once.
    const secondRun = new Date(secondEnd.getTime() + MINUTE);
    await Promise.all([runAt(secondRun), runAt(secondRun), runAt(secondRun)]);
    rows = await invoices(org);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({ period_start: firstEnd, period_end: secondEnd, seats: 3, amount_cents: 297, status: "paid" });
    expect(rows[1].created_at).toEqual(secondRun);
    expect(await seatCharges(org)).toEqual(rows.map((r) => ({ amount_cents: -297, reference: `seat_invoice:${r.id}` })));
    expect(await balance(org)).toBe(10000 - 2 * 297);

    const read = (await billing(t)).body.data;
    expect(read).toMatchObject({ seats: 3, estimated_next_charge: 2.97, balance: 94.06 });
    expect(read.subscription).toMatchObject({ status: "active", in_trial: false });
    expect(new Date(read.subscription.current_period_end).getTime()).toBeGreaterThan(secondEnd.getTime());
    expect(read.invoices).toEqual(
      [...rows].reverse().map((r) => ({
        period: `${r.period_start.toISOString()}/${r.period_end.toISOString()}`,
        seats: 3,
        amount: 2.97,
        created_at: r.created_at.toISOString(),
        status: "paid",
        period_start: r.period_start.toISOString(),
        period_end: r.period_end.toISOString(),
        paid_at: r.paid_at.toISOString(),
      })),
    );
  });

  it("a period without active members is a paid invoice of 0, with no ledger row", async () => {
    const t = await createTenant();
    const org = t.organizationId;
    for (const status of ["invited", "link_sent", "deactivated"]) await addMember(org, status);
    const { start, firstEnd } = await backdatedTimeline(4);
    await startSubscription(org, start);
    await runAt(new Date(firstEnd.getTime() + MINUTE)); // the trial and the first period at once (catch-up)
    const rows = await invoices(org);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ seats: 0, amount_cents: 0, status: "paid" });
    expect(rows[0].paid_at).not.toBeNull();
    expect(await seatCharges(org)).toEqual([]);
    expect(await balance(org)).toBe(10000);
  });

  it("a member deactivated during a period is still one of its seats; one deactivated before it began is not", async () => {
    const t = await createTenant();
    const org = t.organizationId;
    const { start, trialEnd, firstEnd } = await backdatedTimeline(4);
    await startSubscription(org, start);
    const insert = (status: string, activatedAt: Date, deactivatedAt: Date | null) =>
      sql(
        shared().env,
        `INSERT INTO members (member_id, organization_id, email, role, status, activated_at, deactivated_at, updated_at) VALUES ($1, $2, $3, 'member', $4, $5, $6, now())`,
        [`vmem_${randomBytes(12).toString("hex")}`, org, `${randomBytes(6).toString("hex")}@example.com`, status, activatedAt, deactivatedAt],
      );
    await insert("active", start, null); // a seat all along
    await insert("deactivated", start, new Date(firstEnd.getTime() - MINUTE)); // deactivated a minute before the period ended: still a seat of it
    await insert("deactivated", start, new Date(trialEnd.getTime() - DAY)); // deactivated during the trial: not a seat of the paid period
    await insert("active", new Date(firstEnd.getTime() + 1000), null); // activated after the period ended, before the run: the next period's
    await runAt(new Date(firstEnd.getTime() + MINUTE));
    const rows = await invoices(org);
    expect(rows.map((r: { seats: number; amount_cents: number }) => [r.seats, r.amount_cents])).toEqual([[2, 198]]);
  });

  it("a wallet that cannot pay leaves the invoice open; past due after 7 days (402), collected once topped up", async () => {
    const { assertSeatsPayable } = await import("@/lib/org/billing/seats");
    const t = await createTenant(shared().env, "production");
    const org = t.organizationId;
    await addMember(org, "active");
    await addMember(org, "active");
    await setWalletBalance(org, 100);
    // The first paid period ended 10 or more days ago, the second ends in over two weeks.
    const { addMonthsClamped, nextPeriodEnd } = await import("@/lib/org/billing/periods");
    const trialEnd = addMonthsClamped(new Date(Date.now() - 10 * DAY), -1);
    const paidEnd = nextPeriodEnd(trialEnd, trialEnd);
    expect(paidEnd.getTime()).toBeLessThanOrEqual(Date.now() - 10 * DAY);
    await startSubscription(org, new Date(trialEnd.getTime() - 14 * DAY));

    const run = new Date(paidEnd.getTime() + MINUTE);
    await runAt(run);
    let [invoice, ...rest] = await invoices(org);
    expect(rest).toEqual([]);
    expect(invoice).toMatchObject({ seats: 2, amount_cents: 198, status: "open", paid_at: null });
    expect(await seatCharges(org)).toEqual([]);
    expect(await balance(org)).toBe(100);
    expect((await subscription(org)).current_period_start).toEqual(paidEnd); // the period advanced anyway

    // Grace: 7 days from the invoice's creation.
    const created: Date = invoice.created_at;
    await expect(assertSeatsPayable(org, new Date(created.getTime() + 7 * DAY))).resolves.toBeUndefined();
    const refused = await assertSeatsPayable(org, new Date(created.getTime() + 7 * DAY + 1)).catch((err) => err);
    expect(refused).toMatchObject({ code: "insufficient_funds", status: 402 });
    expect(refused.message).toMatch(/top up the wallet/);
    const pastDue = (await billing(t)).body.data;
    expect(pastDue.subscription.status).toBe("past_due");
    expect(pastDue.invoices).toEqual([expect.objectContaining({ amount: 1.98, seats: 2, status: "open", paid_at: null })]);

    // Still short: a later run leaves it open.
    await runAt(new Date(created.getTime() + 8 * DAY));
    expect((await invoices(org))[0].status).toBe("open");

    // Topped up: the next run collects it, once.
    await setWalletBalance(org, 1000);
    const collect = new Date(created.getTime() + 9 * DAY);
    await Promise.all([runAt(collect), runAt(collect)]);
    [invoice] = await invoices(org);
    expect(invoice.status).toBe("paid");
    expect(invoice.paid_at).not.toBeNull();
    expect(await seatCharges(org)).toEqual([{ amount_cents: -198, reference: `seat_invoice:${invoice.id}` }]);
    expect(await balance(org)).toBe(1000 - 198);
    await expect(assertSeatsPayable(org, collect)).resolves.toBeUndefined();
    await expect(assertSeatsPayable(org)).resolves.toBeUndefined();
    const paid = (await billing(t)).body.data;
    expect(paid.subscription.status).toBe("active");
    expect(paid.balance).toBe(8.02);
  });
});
