import { now } from "@/lib/clock";
import type { Tx } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";

export type LedgerKind = "welcome_credit" | "manual_credit" | "top_up" | "check_charge" | "seat_charge" | "refund" | "adjustment";

/** `entryId`: the ledger row written (absent when nothing was applied). */
export type LedgerResult = { applied: boolean; balanceCents: number; entryId?: string };

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
  const inserted = await tx.$queryRaw<Array<{ id: string }>>`
    INSERT INTO ledger_entries (id, wallet_id, amount_cents, balance_after_cents, kind, reference, description, created_at)
    VALUES (gen_random_uuid()::text, ${wallet.id}, ${input.amountCents}, 0, ${input.kind},
            ${input.reference ?? null}, ${input.description ?? null}, ${at})
    ON CONFLICT (wallet_id, reference) DO NOTHING
    RETURNING id`;
  const entryId = inserted[0]?.id;
  if (!entryId) return { applied: false, balanceCents: wallet.balanceCents };

  const updated = await tx.$queryRaw<Array<{ balance_cents: number }>>`
    UPDATE wallets SET balance_cents = balance_cents + ${input.amountCents}, updated_at = ${at}
     WHERE id = ${wallet.id} AND balance_cents + ${input.amountCents} >= 0
    RETURNING balance_cents`;
  const balance = updated[0]?.balance_cents;
  if (balance === undefined) throw new ApiError("insufficient_funds");
  await tx.ledgerEntry.update({ where: { id: entryId }, data: { balanceAfterCents: balance } });
  return { applied: true, balanceCents: balance, entryId };
}
