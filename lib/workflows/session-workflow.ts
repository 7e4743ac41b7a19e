import { ApiError } from "@/lib/http/api-error";
import { assertSessionFeaturesRunnable } from "./runnable-features";
import { SESSION_TTL } from "./settings";

/** What session creation reads of a workflow. */
export type SessionWorkflow = {
  id: string;
  appId: string;
  name: string;
  features: string[];
  settings: unknown;
  isActive: boolean;
  deletedAt: Date | null;
  /** `verification`, or one of the organization API's account-recovery workflows (never started from here). */
  purpose: string;
};

/**
 * The workflow rule of session creation: the workflow belongs to the app, is
 * one of its own (not an account-recovery workflow), not deleted and active (else 404 `workflow_not_found`), and names only
 * checks this server can run (else 422 `invalid_request`).
 */
export async function assertWorkflowStartsSessions<W extends SessionWorkflow>(workflow: W | undefined, appId: string): Promise<W> {
  if (!workflow || workflow.appId !== appId || workflow.deletedAt !== null || workflow.purpose !== "verification") throw new ApiError("workflow_not_found");
  if (!workflow.isActive) {
    throw new ApiError("workflow_not_found", { message: "Workflow is not active: activate it to create sessions" });
  }
  await assertSessionFeaturesRunnable(workflow.features);
  return workflow;
}

/** A session's lifetime: the request's `ttl_seconds`, else the workflow's `session.ttl_seconds`, else 24 hours. */
export function sessionTtlSeconds(requested: number | undefined, workflowSettings: unknown): number {
  if (requested !== undefined) return requested;
  const stored = (workflowSettings as { session?: { ttl_seconds?: unknown } } | null)?.session?.ttl_seconds;
  return typeof stored === "number" && Number.isInteger(stored) ? stored : SESSION_TTL.default;
}
