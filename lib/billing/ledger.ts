import { Prisma } from "@/generated/prisma/client";
import type { Tx } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";

export type LedgerKind = "welcome_credit" | "manual_credit" | "check_charge" | "seat_charge" | "refund";

/**
 * Applies one balance change and writes its ledger row in the caller's
 * transaction (so it commits or rolls back with its cause). Debits never
 * take the balance below zero: 402 instead. A `reference` makes the change
 * happen at most once per wallet (the unique index rejects a second one).
 */
export async function applyLedgerEntry(
  tx: Tx,
  input: { organizationId: string; amountCents: number; kind: LedgerKind; reference?: string; description?: string },
) {
  if (!Number.isInteger(input.amountCents) || input.amountCents === 0) {
    throw new RangeError("amountCents must be a non-zero integer");
  }
  const where =
    input.amountCents < 0
      ? { organizationId: input.organizationId, balanceCents: { gte: -input.amountCents } }
      : { organizationId: input.organizationId };
  const updated = await tx.wallet.updateMany({ where, data: { balanceCents: { increment: input.amountCents } } });
  if (updated.count === 0) {
    const exists = await tx.wallet.findUnique({ where: { organizationId: input.organizationId } });
    if (!exists) throw new Error(`Organization ${input.organizationId} has no wallet`);
    throw new ApiError("insufficient_funds");
  }
  const wallet = await tx.wallet.findUniqueOrThrow({ where: { organizationId: input.organizationId } });
  return tx.ledgerEntry.create({
    data: {
      walletId: wallet.id,
      amountCents: input.amountCents,
      balanceAfterCents: wallet.balanceCents,
      kind: input.kind,
      reference: input.reference ?? null,
      description: input.description ?? null,
    },
  });
}

export function isDuplicateReference(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";
}
