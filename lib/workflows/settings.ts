import { z } from "zod";
import { LIVENESS_ACTIONS } from "@/lib/contract-vocabulary";
import { ApiError } from "@/lib/http/api-error";
import { fieldErrors } from "@/lib/http/validation";
import type { Feature } from "./schemas";

/**
 * Workflow settings: one validated object per feature plus `session`, every
 * field with a default, returned complete. docs/sessions.md "Workflow settings"
 * documents each field. Unknown keys are rejected, so a typo never silently
 * falls back to a default.
 */
export const DOCUMENT_TYPES = ["passport", "id_card", "driving_licence"] as const;
export { LIVENESS_ACTIONS, type LivenessAction } from "@/lib/contract-vocabulary";

export const SESSION_TTL = { min: 300, max: 7 * 24 * 3600, default: 24 * 3600 } as const;

export const SessionSettings = z
  .object({
    ttl_seconds: z.number().int().min(SESSION_TTL.min).max(SESSION_TTL.max).default(SESSION_TTL.default),
    /**
     * Sessions bound to a person's account (svc_access_token) reuse the
     * proofs it already holds (a valid document: the document step is
     * skipped, age comes from it, face match uses the enrolled face).
     * false: every check runs fresh.
     */
    reuse_proofs: z.boolean().default(true),
  })
  .strict();

const IdVerificationSettings = z
  .object({
    allowed_documents: z.array(z.enum(DOCUMENT_TYPES)).min(1).default([...DOCUMENT_TYPES]),
    /** A document read below this confidence goes to manual review instead of a guess. */
    min_read_confidence: z.number().min(0).max(1).default(0.8),
  })
  .strict();

const LivenessSettings = z
  .object({
    /** Active challenge: the person performs server-chosen actions over a burst of frames. */
    actions: z.array(z.enum(LIVENESS_ACTIONS)).min(1).default([...LIVENESS_ACTIONS]),
    /** 3 of the 6 actions, never the same twice in a row: 6 x 5 x 5 = 150 sequences. */
    actions_per_challenge: z.number().int().min(1).max(3).default(3),
    /** Recommended burst size; the page takes at least a move and a return frame per action when 8 frames allow it. */
    frames: z.number().int().min(3).max(8).default(7),
    max_attempts: z.number().int().min(1).max(10).default(3),
  })
  .strict();

const FaceMatchSettings = z
  .object({
    /**
     * Cosine similarity needed to pass. `npm run eval:faces` (2026-11-21): no
     * certainly-different pair of 2,244 reached 0.61 (max 0.609); 0.52 let 2%
     * of them pass.
     */
    threshold: z.number().min(0).max(1).default(0.61),
    /**
     * Similarity within this margin under the threshold goes to manual review:
     * 0.53-0.61, where 0.533 is the false-match rate 1e-2 point of the eval.
     */
    review_margin: z.number().min(0).max(0.5).default(0.08),
  })
  .strict();

const AgeSettings = z.object({ minimum_age: z.number().int().min(1).max(120).default(18) }).strict();

const LocationSettings = z
  .object({
    /** Radius used when a session's metadata gives an expected point without `radius_m`; null keeps spec rule 3 (report distance only). */
    default_radius_m: z.number().positive().max(20_040_000).nullable().default(null),
  })
  .strict();

const CredentialSettings = z
  .object({
    /** Licence types accepted (`credential_name` values); empty accepts any. */
    license_types: z.array(z.string().trim().min(1).max(200)).max(100).default([]),
    /** Registry lookups a session may make (each a try of a state, credential and number). */
    max_attempts: z.number().int().min(1).max(10).default(5),
  })
  .strict();

const FaceUniquenessSettings = z
  .object({
    /**
     * Similarity at which a face counts as already enrolled. A 1:N search
     * multiplies the false-match rate by the gallery size: strangers score
     * 0.375 on average, sd 0.067 (`npm run eval:faces`), so at 0.68 a search
     * expects about 0.05 false matches among 10,000 faces, 0.5 among 100,000
     * and 5 among 1,000,000 (95% bounds). Fewer than 1 in 1,000 searches
     * takes 0.735, 0.763 and 0.79, which misses more of the same person's
     * photos (median 0.77): set it for the gallery's size (README, "Face
     * search at scale").
     */
    threshold: z.number().min(0).max(1).default(0.68),
    /**
     * Similarity from which a match is certain enough to fail the check
     * (`duplicate_face`); from `threshold` up to here it goes to review
     * (`possible_duplicate_face`): a decline needs evidence that holds at any
     * gallery size. 0.79 keeps false duplicates under 1 in 1,000 searches at
     * 1,000,000 enrolled faces (docs/hosted-flow.md, "Face search at scale"). Set it to
     * `threshold` to fail every match.
     */
    decline_threshold: z.number().min(0).max(1).default(0.79),
  })
  .strict()
  .refine((s) => s.decline_threshold >= s.threshold, { message: "decline_threshold must be at least threshold", path: ["decline_threshold"] });

export const FEATURE_SETTINGS = {
  id_verification: IdVerificationSettings,
  liveness: LivenessSettings,
  face_match: FaceMatchSettings,
  credential: CredentialSettings,
  age: AgeSettings,
  location: LocationSettings,
  face_uniqueness: FaceUniquenessSettings,
} satisfies Record<Feature, z.ZodType>;

export type WorkflowSettings = { session: z.infer<typeof SessionSettings> } & {
  [F in Feature]?: z.infer<(typeof FEATURE_SETTINGS)[F]>;
};

/**
 * Validates `input` for a workflow with `features` and fills every default.
 * Throws 400 invalid_request with `settings.<path>` keys.
 */
export function resolveSettings(features: readonly Feature[], input: Record<string, unknown>): WorkflowSettings {
  const errors: Record<string, string[]> = Object.create(null);
  const allowed = new Set<string>(["session", ...features]);
  for (const key of Object.keys(input)) {
    if (!allowed.has(key)) {
      errors[`settings.${key}`] = [
        Object.hasOwn(FEATURE_SETTINGS, key) ? `${key} is not a feature of this workflow` : `Unknown settings key ${key}`,
      ];
    }
  }
  const out: Record<string, unknown> = {};
  const parts: Array<[string, z.ZodType]> = [
    ["session", SessionSettings],
    ...features.map((f) => [f, FEATURE_SETTINGS[f]] as [string, z.ZodType]),
  ];
  for (const [key, schema] of parts) {
    const result = schema.safeParse(input[key] ?? {});
    if (result.success) out[key] = result.data;
    else for (const [path, messages] of Object.entries(fieldErrors(result.error, key))) errors[`settings.${path}`] = messages;
  }
  if (Object.keys(errors).length) {
    throw new ApiError("invalid_request", { message: `Invalid workflow settings: ${Object.keys(errors).join(", ")}`, data: { errors } });
  }
  return out as WorkflowSettings;
}
