import { now } from "@/lib/clock";
import type { Tx } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import { sql } from "kysely";
import { prepareQuery, runPreparedInTransaction, typedSql } from "@/lib/db/typed-sql";

export type LedgerKind = "welcome_credit" | "manual_credit" | "top_up" | "check_charge" | "seat_charge" | "refund" | "adjustment";

/** `entryId`: the ledger row written (absent when nothing was applied). */
export type LedgerResult = { applied: boolean; balanceCents: number; entryId?: string };

/**
 * The ledger row, unless the wallet already has one with this reference
 * (then no row: the unique index decides without aborting the transaction).
 * Its balance is filled in once the wallet has moved.
 */
const insertEntry = prepareQuery(
  "ledger_insert_entry",
  (v: { walletId: string; amountCents: number; kind: LedgerKind; reference: string | null; description: string | null; at: Date }) =>
    typedSql
      .insertInto("ledger_entries")
      .values({
        id: sql<string>`gen_random_uuid()::text`,
        wallet_id: v.walletId,
        amount_cents: v.amountCents,
        balance_after_cents: 0,
        kind: v.kind,
        reference: v.reference,
        description: v.description,
        created_at: v.at,
      })
      .onConflict((oc) => oc.columns(["wallet_id", "reference"]).doNothing())
      .returning("id"),
);

/** The wallet moved by `amountCents`, unless that takes it below zero (then no row). */
const creditWallet = prepareQuery("ledger_credit_wallet", (v: { walletId: string; amountCents: number; at: Date }) =>
  typedSql
    .updateTable("wallets")
    .set((eb) => ({ balance_cents: eb("balance_cents", "+", v.amountCents), updated_at: v.at }))
    .where("id", "=", v.walletId)
    .where((eb) => eb(eb("balance_cents", "+", v.amountCents), ">=", 0))
    .returning("balance_cents"),
);

/**
 * Applies one balance change and writes its ledger row in the caller's
 * transaction, so it commits or rolls back with its cause.
 * - A debit never takes the balance below zero: 402 insufficient_funds.
 * - A `reference` makes the change happen at most once per wallet: a second
 *   change with the same reference does nothing (`applied: false`), also
 *   under concurrency (the unique index decides, without aborting the
 *   caller's transaction).
 * The row's `created_at` and the wallet's `updated_at` come from the clock
 * (lib/clock.ts), never from the database's `now()`.
 */
export async function applyLedgerEntry(
  tx: Tx,
  input: { organizationId: string; amountCents: number; kind: LedgerKind; reference?: string; description?: string },
): Promise<LedgerResult> {
  if (!Number.isInteger(input.amountCents) || input.amountCents === 0) {
    throw new RangeError("amountCents must be a non-zero integer");
  }
  const wallet = await tx.wallet.findUnique({ where: { organizationId: input.organizationId } });
  if (!wallet) throw new Error(`Organization ${input.organizationId} has no wallet`);

  const at = now();
  const inserted = await runPreparedInTransaction(tx, insertEntry, {
    walletId: wallet.id,
    amountCents: input.amountCents,
    kind: input.kind,
    reference: input.reference ?? null,
    description: input.description ?? null,
    at,
  });
  const entryId = inserted[0]?.id;
  if (!entryId) return { applied: false, balanceCents: wallet.balanceCents };

  const updated = await runPreparedInTransaction(tx, creditWallet, { walletId: wallet.id, amountCents: input.amountCents, at });
  const balance = updated[0]?.balance_cents;
  if (balance === undefined) throw new ApiError("insufficient_funds");
  await tx.ledgerEntry.update({ where: { id: entryId }, data: { balanceAfterCents: balance } });
  return { applied: true, balanceCents: balance, entryId };
}
