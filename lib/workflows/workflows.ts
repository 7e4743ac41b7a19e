import { now } from "@/lib/clock";
import type { z } from "zod";
import type { App, Workflow } from "@/generated/prisma/client";
import { db, type Tx } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import { UUID_PATTERN } from "@/lib/http/validation";
import { normaliseFeatures, type CreateWorkflowBody, type Feature, type UpdateWorkflowBody } from "./schemas";
import { assertLicenceTypesOffered } from "@/lib/licence-registries/catalogue";
import { assertWorkflowFeaturesRunnable } from "./runnable-features";
import { resolveSettings, type WorkflowSettings } from "./settings";
import { storedFeature } from "@/lib/contract-vocabulary";

export function presentWorkflow(w: Workflow) {
  return {
    id: w.id,
    name: w.name,
    features: w.features.map(storedFeature),
    settings: w.settings as WorkflowSettings,
    is_active: w.isActive,
    created_at: w.createdAt.toISOString(),
    updated_at: w.updatedAt.toISOString(),
  };
}

/** A workflow of this app, or 404 (also when it belongs to another app: spec 7 rule 2). */
export async function findWorkflow(app: App, id: string): Promise<Workflow> {
  if (!UUID_PATTERN.test(id)) throw new ApiError("workflow_not_found");
  const prisma = await db();
  const workflow = await prisma.workflow.findFirst({ where: { id, appId: app.id, deletedAt: null, purpose: "verification" } });
  if (!workflow) throw new ApiError("workflow_not_found");
  return workflow;
}

/**
 * `commit`, when given, runs in the insert's transaction with the created
 * workflow (the Idempotency-Key's stored answer commits with it).
 */
export async function createWorkflow(
  app: App,
  body: z.infer<typeof CreateWorkflowBody>,
  commit?: (tx: Tx, created: PresentedWorkflow) => Promise<void>,
) {
  await assertWorkflowFeaturesRunnable(body.features);
  const features = normaliseFeatures(body.features);
  const settings = resolveSettings(features, body.settings);
  await assertLicenceTypesOffered(settings.credential?.license_types ?? []);
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const created = presentWorkflow(await tx.workflow.create({ data: { appId: app.id, name: body.name, features, settings, isActive: body.is_active } }));
    if (commit) await commit(tx, created);
    return created;
  });
}

export type PresentedWorkflow = ReturnType<typeof presentWorkflow>;

export async function listWorkflows(app: App) {
  const prisma = await db();
  const rows = await prisma.workflow.findMany({
    where: { appId: app.id, deletedAt: null, purpose: "verification" },
    orderBy: { createdAt: "desc" },
  });
  return rows.map(presentWorkflow);
}

/**
 * PATCH semantics: `settings` replaces the settings of the keys it names and
 * keeps the others; settings of features no longer in the workflow are
 * dropped; new features get their defaults. Sessions already created keep
 * the snapshot they took (spec 4.2).
 */
export async function updateWorkflow(app: App, id: string, body: z.infer<typeof UpdateWorkflowBody>) {
  const existing = await findWorkflow(app, id);
  if (body.features) await assertWorkflowFeaturesRunnable(body.features);
  const features = body.features ? normaliseFeatures(body.features) : (existing.features as Feature[]);
  const kept = Object.fromEntries(
    Object.entries((existing.settings ?? {}) as Record<string, unknown>).filter(
      ([key]) => key === "session" || features.includes(key as Feature),
    ),
  );
  const settings = resolveSettings(features, { ...kept, ...(body.settings ?? {}) });
  // Checked when they are set: a licence type a registry stopped offering later does not block other changes.
  if (body.settings && "credential" in body.settings) await assertLicenceTypesOffered(settings.credential?.license_types ?? []);
  const prisma = await db();
  const workflow = await prisma.workflow.update({
    where: { id: existing.id },
    data: { name: body.name, features, settings, isActive: body.is_active },
  });
  return presentWorkflow(workflow);
}

/** Soft delete: sessions that already snapshotted it keep working (spec 4.2). */
export async function deleteWorkflow(app: App, id: string) {
  const existing = await findWorkflow(app, id);
  const prisma = await db();
  await prisma.workflow.update({ where: { id: existing.id }, data: { deletedAt: now() } });
  return { deleted: true as const };
}
