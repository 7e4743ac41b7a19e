import { z } from "zod";

import { FEATURES, type Feature } from "@/lib/contract-vocabulary";

export { FEATURES, type Feature } from "@/lib/contract-vocabulary";

const FeatureList = z
  .array(z.enum(FEATURES, { message: `Unknown feature; known: ${FEATURES.join(", ")}` }))
  .min(1, "At least one feature is required");

/** Checked against the workflow's features by resolveSettings() (settings.ts). */
const Settings = z.record(z.string(), z.unknown());

export const CreateWorkflowBody = z.strictObject({
  name: z.string().trim().min(1, "Name is required").max(120, "Name must be at most 120 characters"),
  features: FeatureList,
  settings: Settings.default({}),
  is_active: z.boolean().default(true),
});

export const UpdateWorkflowBody = z
  .strictObject({
    name: CreateWorkflowBody.shape.name.optional(),
    features: FeatureList.optional(),
    settings: Settings.optional(),
    is_active: z.boolean().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: "Give at least one of name, features, settings, is_active",
  });

/**
 * Spec 2.3: features that bring others. `age` needs the document's date of
 * birth, so it brings `id_verification`; so does `credential`: a licence
 * must belong to the verified person (spec 7 `kyc_required`).
 */
export const FEATURE_REQUIRES: Readonly<Partial<Record<Feature, readonly Feature[]>>> = { age: ["id_verification"], credential: ["id_verification"] };

/** The features `features` bring in (FEATURE_REQUIRES) with them, in FEATURES order. */
export function normaliseFeatures(features: readonly Feature[]): Feature[] {
  const set = new Set(features);
  for (const feature of features) for (const required of FEATURE_REQUIRES[feature] ?? []) set.add(required);
  return FEATURES.filter((f) => set.has(f));
}

/** The chosen features that bring `feature` in, e.g. ["age"] for `id_verification` when `age` is chosen. */
export function requiredBy(feature: Feature, chosen: readonly Feature[]): Feature[] {
  return chosen.filter((f) => FEATURE_REQUIRES[f]?.includes(feature));
}
