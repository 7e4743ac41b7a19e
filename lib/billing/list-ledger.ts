import { db } from "@/lib/db/client";
import { decodeCursor, keysetPage } from "@/lib/http/keyset-cursor";
import { centsToAmount } from "./money";

export const LEDGER_PAGE_SIZE = 25;

/** The cause of a ledger row, for people: what it was and, for a check charge, which session. */
export type LedgerCause =
  | { kind: "welcome_credit" }
  | { kind: "check_charge"; check: string; session_id: string }
  | { kind: "top_up" | "manual_credit" | "seat_charge" | "refund" | "adjustment" | "other"; description: string | null };

export type PresentedLedgerEntry = {
  id: string;
  amount: number;
  balance_after: number;
  created_at: string;
  cause: LedgerCause;
};

function causeOf(kind: string, reference: string | null, description: string | null): LedgerCause {
  if (kind === "welcome_credit") return { kind: "welcome_credit" };
  const charge = kind === "check_charge" ? reference?.match(/^check:([^:]+):(.+)$/) : null;
  if (charge) return { kind: "check_charge", session_id: charge[1]!, check: charge[2]! };
  const known = ["top_up", "manual_credit", "seat_charge", "refund", "adjustment"] as const;
  return { kind: (known as readonly string[]).includes(kind) ? (kind as (typeof known)[number]) : "other", description };
}

/**
 * One page of an organization's ledger, newest first, with the cursor of the
 * next page (null at the end). Keyset pagination on (created_at, id) over the
 * ledger's (wallet_id, created_at) index.
 */
export async function listLedgerEntries(organizationId: string, options: { cursor?: string; limit?: number } = {}) {
  const limit = Math.min(Math.max(options.limit ?? LEDGER_PAGE_SIZE, 1), 100);
  const prisma = await db();
  const wallet = await prisma.wallet.findUnique({ where: { organizationId } });
  if (!wallet) return { balance: 0, currency: "USD", entries: [] as PresentedLedgerEntry[], next_cursor: null as string | null };
  const after = options.cursor ? decodeCursor(options.cursor) : null;
  const rows = await prisma.ledgerEntry.findMany({
    where: {
      walletId: wallet.id,
      ...(after
        ? { OR: [{ createdAt: { lt: new Date(after.t) } }, { createdAt: new Date(after.t), id: { lt: after.id } }] }
        : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const { page, nextCursor } = keysetPage(rows, limit);
  return {
    balance: centsToAmount(wallet.balanceCents),
    currency: wallet.currency,
    entries: page.map(
      (r): PresentedLedgerEntry => ({
        id: r.id,
        amount: centsToAmount(r.amountCents),
        balance_after: centsToAmount(r.balanceAfterCents),
        created_at: r.createdAt.toISOString(),
        cause: causeOf(r.kind, r.reference, r.description),
      }),
    ),
    next_cursor: nextCursor,
  };
}
