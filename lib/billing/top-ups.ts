import { db } from "@/lib/db/client";
import { UUID_PATTERN } from "@/lib/http/validation";
import { centsToAmount } from "./money";

export type TopUpView = {
  id: string;
  status: "pending" | "completed" | "expired" | "failed";
  amount: number;
  amountMinor: number;
  currency: string;
  checkoutSessionId: string | null;
  createdAt: Date;
  completedAt: Date | null;
};

/**
 * One top-up of an organization, e.g. for the page Stripe sends the developer
 * back to ("payment received" once the webhook has credited it). Another
 * organization's top-up is null, as an unknown one.
 */
export async function getTopUp(organizationId: string, topUpId: string): Promise<TopUpView | null> {
  if (!UUID_PATTERN.test(topUpId)) return null;
  const prisma = await db();
  const row = await prisma.topUp.findFirst({ where: { id: topUpId, organizationId } });
  if (!row) return null;
  return {
    id: row.id,
    status: row.status as TopUpView["status"],
    amount: centsToAmount(row.amountCents),
    amountMinor: row.amountCents,
    currency: row.currency,
    checkoutSessionId: row.stripeCheckoutSessionId,
    createdAt: row.createdAt,
    completedAt: row.completedAt,
  };
}
