import { ApiError } from "@/lib/http/api-error";
import type { Feature } from "./schemas";

/**
 * Features a workflow may name but this server cannot run yet. A check that
 * cannot run is never offered, started or billed (spec 1.6): workflows
 * cannot take it on, and a stored workflow that has it cannot start
 * sessions. `credential` waits for the licence registry adapters.
 */
const NOT_RUNNABLE: ReadonlySet<Feature> = new Set<Feature>(["credential"]);

export function isRunnableFeature(feature: Feature): boolean {
  return !NOT_RUNNABLE.has(feature);
}

function unavailableMessage(feature: Feature) {
  return `The ${feature} check is not available on this server yet`;
}

/** Why a feature cannot be chosen, or null when it can: what the builder shows next to it. */
export function unavailableReason(feature: Feature): string | null {
  return isRunnableFeature(feature) ? null : unavailableMessage(feature);
}

/** Workflow create/update: 400 `invalid_request` with `features.<i>` per unavailable feature. */
export function assertWorkflowFeaturesRunnable(features: readonly Feature[]) {
  const errors: Record<string, string[]> = Object.create(null);
  features.forEach((feature, i) => {
    if (!isRunnableFeature(feature)) errors[`features.${i}`] = [unavailableMessage(feature)];
  });
  const fields = Object.keys(errors);
  if (fields.length) {
    throw new ApiError("invalid_request", { message: `Invalid request: ${fields.join(", ")}`, data: { errors } });
  }
}

/** Session create on a stored workflow that names an unavailable check: 422 `invalid_request`, nothing created or charged. */
export function assertSessionFeaturesRunnable(features: readonly string[]) {
  const blocked = features.filter((f) => !isRunnableFeature(f as Feature));
  if (blocked.length) {
    throw new ApiError("invalid_request", {
      status: 422,
      message: `${unavailableMessage(blocked[0] as Feature)}: remove ${blocked.join(", ")} from the workflow to start sessions`,
      data: { features: blocked },
    });
  }
}
