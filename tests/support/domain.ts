import { afterAll, beforeAll } from "vitest";
import { shared, useDatabaseOf } from "./api";

/**
 * Lets a test file use the domain layer (lib/) on the shared server's
 * database, e.g. to record check results the way the check executors do.
 * The public API offers no such shortcut; only tests reach it this way.
 */
export function useServerDatabase() {
  beforeAll(() => useDatabaseOf(shared().env));
  afterAll(async () => {
    const { disconnectDb } = await import("@/lib/db/client");
    await disconnectDb();
  });
}

/** Sets an organization's wallet to exactly `cents` with an adjustment ledger row. */
export async function setWalletBalance(organizationId: string, cents: number) {
  const { db } = await import("@/lib/db/client");
  const { applyLedgerEntry } = await import("@/lib/billing/ledger");
  const prisma = await db();
  await prisma.$transaction(async (tx) => {
    const wallet = await tx.wallet.findUniqueOrThrow({ where: { organizationId } });
    const delta = cents - wallet.balanceCents;
    if (delta !== 0) await applyLedgerEntry(tx, { organizationId, amountCents: delta, kind: "adjustment", description: "test setup" });
  });
}
