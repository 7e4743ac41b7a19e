import { z } from "zod";
import type { App } from "@/generated/prisma/client";
import { db } from "@/lib/db/client";
import { afterCursor, keysetPage } from "@/lib/http/keyset-cursor";
import { presentWorkflow } from "./workflows";

export const WORKFLOW_PAGE_SIZE = 25;

/** The portal's list query: a page after `cursor`, optionally only active or only inactive workflows. */
export const WorkflowListQuery = z.object({
  cursor: z.string().max(500).optional(),
  status: z.enum(["active", "inactive"], { message: "status must be active or inactive" }).optional(),
});
export type WorkflowListFilter = z.infer<typeof WorkflowListQuery>;

export type WorkflowPage = { workflows: ReturnType<typeof presentWorkflow>[]; next_cursor: string | null };

/**
 * One page of an app's workflows (deleted ones never), newest first, with
 * the cursor of the next page (null at the end): keyset pagination on
 * (created_at, id) over the (app_id, created_at) index.
 */
export async function listWorkflowPage(app: App, filter: WorkflowListFilter = {}, limit = WORKFLOW_PAGE_SIZE): Promise<WorkflowPage> {
  const prisma = await db();
  const rows = await prisma.workflow.findMany({
    where: {
      appId: app.id,
      deletedAt: null,
      purpose: "verification",
      ...(filter.status ? { isActive: filter.status === "active" } : {}),
      ...afterCursor(filter.cursor),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const { page, nextCursor } = keysetPage(rows, limit);
  return { workflows: page.map(presentWorkflow), next_cursor: nextCursor };
}
