import { checkPrices } from "@/lib/billing/prices";
import { unavailableReason } from "./runnable-features";
import { FEATURES } from "./schemas";
import { describeWorkflowSettings } from "./settings-description";

/**
 * What the portal's workflow builder is generated from, serialisable for a
 * client component: the settings description (every setting's type,
 * default and bounds) and, per feature, why it cannot be chosen (null when
 * it can) and its price per session.
 */
export function workflowBuilderSchema() {
  const prices = checkPrices();
  return {
    groups: describeWorkflowSettings(),
    features: FEATURES.map((feature) => ({ feature, unavailable: unavailableReason(feature), priceCents: prices[feature] })),
  };
}
