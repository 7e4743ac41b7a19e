import { db } from "@/lib/db/client";
import { applyLedgerEntry } from "./ledger";
import { centsToAmount } from "./money";

export async function creditWallet(organizationId: string, amountCents: number, description = "Manual credit") {
  if (amountCents <= 0) throw new RangeError("A credit must be positive");
  const prisma = await db();
  const entry = await prisma.$transaction((tx) =>
    applyLedgerEntry(tx, { organizationId, amountCents, kind: "manual_credit", description }),
  );
  return { balanceCents: entry.balanceCents, balance: centsToAmount(entry.balanceCents) };
}

export async function getWallet(organizationId: string) {
  const prisma = await db();
  const wallet = await prisma.wallet.findUnique({ where: { organizationId } });
  if (!wallet) return null;
  return { currency: wallet.currency, balanceCents: wallet.balanceCents, balance: centsToAmount(wallet.balanceCents) };
}
