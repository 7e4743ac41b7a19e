import { z } from "zod";

/** Spec 2.3: the features a workflow can run. */
export const FEATURES = [
  "id_verification",
  "liveness",
  "face_match",
  "credential",
  "age",
  "location",
  "face_uniqueness",
] as const;
export type Feature = (typeof FEATURES)[number];

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

/** Spec 2.3: `age` needs the document's date of birth, so it brings `id_verification`. */
export function normaliseFeatures(features: readonly Feature[]): Feature[] {
  const set = new Set(features);
  if (set.has("age")) set.add("id_verification");
  return FEATURES.filter((f) => set.has(f));
}
