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
  const inserted = await tx.$queryRaw<Array<{ id: string }>>`
    INSERT INTO org_subscriptions
      (id, organization_id, plan, price_per_seat_cents, trial_ends_at, current_period_start, current_period_end, created_at, updated_at)
    VALUES (gen_random_uuid()::text, ${organizationId}, ${SEAT_PLAN}, ${SEAT_PRICE_CENTS}, ${trialEnd}, ${at}, ${trialEnd}, ${at}, ${at})
    ON CONFLICT (organization_id) DO NOTHING
    RETURNING id`;
  return { created: inserted.length > 0 };
}
