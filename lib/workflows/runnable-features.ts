import { licenceProvidersConfigured } from "@/lib/licence-registries/catalogue";
import { ApiError } from "@/lib/http/api-error";
import type { Feature } from "./schemas";

/**
 * Features a workflow may name that this server cannot run now, with why. A
 * check that cannot run is never offered, started or billed (spec 1.6):
 * workflows cannot take it on, and a stored workflow that has it cannot
 * start sessions. `credential` needs a licence registry: NPPES (unless
 * NPPES_BASE_URL=off) or an imported one (docs/licences.md).
 */
export async function unavailableFeatures(features: readonly string[] = ["credential"]): Promise<ReadonlyMap<Feature, string>> {
  const out = new Map<Feature, string>();
  if (features.includes("credential") && !(await licenceProvidersConfigured())) {
    out.set("credential", "The credential check needs a licence registry: set NPPES_BASE_URL or import one with `svc registry:import`");
  }
  return out;
}

/** Workflow create/update: 400 `invalid_request` with `features.<i>` per unavailable feature. */
export async function assertWorkflowFeaturesRunnable(features: readonly Feature[]) {
  const unavailable = await unavailableFeatures(features);
  const errors: Record<string, string[]> = Object.create(null);
  features.forEach((feature, i) => {
    const reason = unavailable.get(feature);
    if (reason) errors[`features.${i}`] = [reason];
  });
  const fields = Object.keys(errors);
  if (fields.length) {
    throw new ApiError("invalid_request", { message: `Invalid request: ${fields.join(", ")}`, data: { errors } });
  }
}

/** Session create on a stored workflow that names an unavailable check: 422 `invalid_request`, nothing created or charged. */
export async function assertSessionFeaturesRunnable(features: readonly string[]) {
  const unavailable = await unavailableFeatures(features);
  const blocked = features.filter((f) => unavailable.has(f as Feature));
  if (blocked.length) {
    throw new ApiError("invalid_request", {
      status: 422,
      message: `${unavailable.get(blocked[0] as Feature)}: remove ${blocked.join(", ")} from the workflow to start sessions`,
      data: { features: blocked },
    });
  }
}
