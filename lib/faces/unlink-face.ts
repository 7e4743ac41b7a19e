import type { App } from "@/generated/prisma/client";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import { UUID_PATTERN } from "@/lib/http/validation";
import { unlinkFace } from "./gallery";

/**
 * DELETE /api/v2/face-uniqueness/{svc_uuid} (spec 4.3, 2.5): the GDPR
 * unlink. 403 `feature_not_allowed` when none of the app's workflows (deleted
 * ones included, so faces they enrolled can still be forgotten) uses
 * face_uniqueness; 404 `not_found` for an unknown id or one with no active
 * enrollment for this app.
 */
export async function forgetFace(app: App, svcUuid: string) {
  const prisma = await db();
  const allowed = await prisma.workflow.count({ where: { appId: app.id, features: { has: "face_uniqueness" } } });
  if (allowed === 0) {
    throw new ApiError("feature_not_allowed", { message: "Face unlinking needs a workflow with the face_uniqueness feature" });
  }
  const result = UUID_PATTERN.test(svcUuid) ? await unlinkFace(app.id, svcUuid.toLowerCase()) : null;
  if (!result) throw new ApiError("not_found", { message: "No active face enrollment with this svc_uuid in this project" });
  return { svc_uuid: svcUuid.toLowerCase(), unlinked: true as const, deleted: result.deleted };
}
