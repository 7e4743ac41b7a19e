import type { Tx } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { trialEndsAt } from "./periods";
import { SEAT_PRICE_CENTS } from "./pricing";

export const SEAT_PLAN = "seats";

/**
 * Starts the organization's seat subscription, in its trial, when its
 * roster is first written (the first member added or bound), in the
 * caller's transaction: plan `seats` at SEAT_PRICE_CENTS, the trial (the
 * first, free period) from `at` to `at` + 14 days. Idempotent: an existing
 * subscription is left as it is, also under concurrent first writes
 * (the unique organization_id decides).
 */
export async function ensureSubscription(tx: Tx, organizationId: string, at: Date = now()): Promise<{ created: boolean }> {
  const trialEnd = trialEndsAt(at);
  // skipDuplicates: ON CONFLICT DO NOTHING, so concurrent first activations make one subscription.
  const inserted = await tx.orgSubscription.createMany({
    data: [{ organizationId, plan: SEAT_PLAN, pricePerSeatCents: SEAT_PRICE_CENTS, trialEndsAt: trialEnd, currentPeriodStart: at, currentPeriodEnd: trialEnd, createdAt: at, updatedAt: at }],
    skipDuplicates: true,
  });
  return { created: inserted.count > 0 };
}
