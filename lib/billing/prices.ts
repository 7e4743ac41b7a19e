import { z } from "zod";
import { ConfigError, env } from "@/lib/config/env";
import { FEATURES, type Feature } from "@/lib/workflows/schemas";
import { parseAmountToCents } from "./money";

/**
 * Price of each check in cents, charged once per session when the check
 * runs (spec 1.6, 8). Login and account reads are free. Override with
 * CHECK_PRICES='{"liveness":0.2}' (USD); README "Billing" lists the defaults.
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

const Overrides = z.record(z.enum(FEATURES), z.number().min(0).max(1000)).optional();

const globalForPrices = globalThis as unknown as { __svcPrices?: Record<Feature, number> };

export function checkPrices(): Record<Feature, number> {
  if (globalForPrices.__svcPrices) return globalForPrices.__svcPrices;
  const raw = env().CHECK_PRICES;
  let overrides: z.infer<typeof Overrides>;
  try {
    overrides = Overrides.parse(raw ? JSON.parse(raw) : undefined);
  } catch {
    throw new ConfigError('CHECK_PRICES must be a JSON object of feature -> USD price, e.g. {"liveness":0.2}');
  }
  const prices = { ...DEFAULT_CHECK_PRICES_CENTS };
  for (const [feature, usd] of Object.entries(overrides ?? {})) {
    prices[feature as Feature] = parseAmountToCents(usd.toFixed(2));
  }
  globalForPrices.__svcPrices = prices;
  return prices;
}
