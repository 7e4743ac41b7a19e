import { ApiError } from "@/lib/http/api-error";
import { centsToAmount } from "./money";
import { checkPrices } from "./prices";

/** The price of all of a workflow's checks, in cents. */
export function sessionCostCents(features: readonly string[]): number {
  const prices: Record<string, number> = checkPrices();
  return features.reduce((sum, feature) => sum + (prices[feature] ?? 0), 0);
}

/**
 * The wallet rule of session creation: the balance covers every check of the
 * workflow, else 402 `insufficient_funds`. Creating a session charges
 * nothing; each check is charged when it runs (lib/sessions/record-check.ts).
 */
export function assertWalletCoversSession(balanceCents: number, features: readonly string[]): void {
  const cost = sessionCostCents(features);
  if (balanceCents < cost) {
    throw new ApiError("insufficient_funds", {
      message: `Wallet balance too low for this workflow's checks (${centsToAmount(cost).toFixed(2)} USD needed)`,
    });
  }
}
