import { env } from "@/lib/config/env";
import type { Feature } from "@/lib/contract-vocabulary";
import { parseAmountToCents } from "./money";
import { processSlot } from "@/lib/process-slots";

/**
 * Price of each check in cents, charged once per session when the check
 * runs (spec 1.6, 8). Login and account reads are free. CHECK_PRICES='{"liveness":0.2}'
 * (USD, validated at start-up with the rest of the configuration) overrides
 * the prices it names; docs/billing.md lists the defaults.
 */
export const DEFAULT_CHECK_PRICES_CENTS: Record<Feature, number> = {
  id_verification: 50,
  liveness: 15,
  face_match: 10,
  credential: 25,
  age: 5,
  location: 5,
  face_uniqueness: 10,
};

const pricesSlot = processSlot<Record<Feature, number>>("prices");

export function checkPrices(): Record<Feature, number> {
  if (pricesSlot.value) return pricesSlot.value;
  const prices = { ...DEFAULT_CHECK_PRICES_CENTS };
  for (const [feature, usd] of Object.entries(env().CHECK_PRICES)) {
    prices[feature as Feature] = parseAmountToCents(usd.toFixed(2));
  }
  pricesSlot.value = prices;
  return prices;
}
