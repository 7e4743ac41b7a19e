import type { App, Workflow } from "@/generated/prisma/client";
import type { Tx } from "@/lib/db/client";
import { FACE_SIGN_IN, faceProofActions } from "@/lib/oidc/face-sign-in";
import type { Feature } from "@/lib/workflows/schemas";
import { resolveSettings, type WorkflowSettings } from "@/lib/workflows/settings";

/**
 * The two account-recovery workflows of an app (spec 4.6 "Recovery start
 * details"), made on first use and never listed or usable by the app's own
 * session API (`purpose` is not `verification`):
 *   - with_id: a fresh document check (prior KYC is not reused), liveness,
 *     face match against the enrolled face (and the new document's portrait);
 *   - without_id: liveness and face match against the enrolled face.
 * Nothing borderline passes: no review band on face match, proofs are never reused.
 */
export const RECOVERY_VARIANTS = ["with_id", "without_id"] as const;
export type RecoveryVariant = (typeof RECOVERY_VARIANTS)[number];

export const RECOVERY_FEATURES: Record<RecoveryVariant, Feature[]> = {
  with_id: ["id_verification", "liveness", "face_match"],
  without_id: ["liveness", "face_match"],
};

/**
 * The settings a recovery session freezes: the workflow's, with the movements
 * face sign-in asks for (FACE_SIGN_IN_ACTIONS, as many per challenge as face
 * sign-in: the workflow default of 3 is for verification workflows).
 */
export function recoverySettings(workflow: Pick<Workflow, "settings">): WorkflowSettings {
  const settings = workflow.settings as WorkflowSettings;
  return settings.liveness
    ? { ...settings, liveness: { ...settings.liveness, actions: faceProofActions(), actions_per_challenge: FACE_SIGN_IN.actionsPerChallenge } }
    : settings;
}

/** A recovery link lives one hour. */
export const RECOVERY_SESSION_SECONDS = 3600;

export async function recoveryWorkflow(tx: Tx, app: Pick<App, "id">, variant: RecoveryVariant): Promise<Workflow> {
  const purpose = `recovery_${variant}`;
  const existing = await tx.workflow.findFirst({ where: { appId: app.id, purpose, deletedAt: null } });
  if (existing) return existing;
  const features = RECOVERY_FEATURES[variant];
  const settings = resolveSettings(features, {
    session: { ttl_seconds: RECOVERY_SESSION_SECONDS, reuse_proofs: false },
    face_match: { review_margin: 0 },
  });
  return tx.workflow.create({ data: { appId: app.id, name: variant === "with_id" ? "Account recovery (with ID)" : "Account recovery", features, settings, purpose } });
}
