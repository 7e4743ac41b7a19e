import { checkPrices } from "@/lib/billing/prices";
import { unavailableFeatures } from "./runnable-features";
import { FEATURES } from "./schemas";
import { describeWorkflowSettings } from "./settings-description";

/**
 * What the portal's workflow builder is generated from, serialisable for a
 * client component: the settings description (every setting's type,
 * default and bounds) and, per feature, why it cannot be chosen (null when
 * it can) and its price per session.
 */
export async function workflowBuilderSchema() {
  const prices = checkPrices();
  const unavailable = await unavailableFeatures(FEATURES);
  return {
    groups: describeWorkflowSettings(),
    features: FEATURES.map((feature) => ({ feature, unavailable: unavailable.get(feature) ?? null, priceCents: prices[feature] })),
  };
}
