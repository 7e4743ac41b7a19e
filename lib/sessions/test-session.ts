import type { App } from "@/generated/prisma/client";
import { ApiError } from "@/lib/http/api-error";
import { createSession } from "@/lib/sessions/create-session";
import { findWorkflow } from "@/lib/workflows/workflows";

/**
 * The portal's "Create a test session": a session of one of the app's
 * workflows through createSession, exactly as POST /api/v2/session makes it
 * (the workflow must be active and runnable, the wallet must cover its
 * checks: 402 insufficient_funds; each check is charged when it runs, live
 * apps included). A deactivated app's API keys are refused, so the portal
 * does not start its sessions either (403 unauthorized_client). Returns the
 * hosted page's URL (the session token in its fragment).
 */
export async function createTestSession(app: App, workflowId: string) {
  if (!app.isActive) throw new ApiError("unauthorized_client", { message: "The app is deactivated: activate it to create sessions" });
  const workflow = await findWorkflow(app, workflowId);
  const session = await createSession(app, { workflow_id: workflow.id });
  return { session_id: session.session_id, url: session.url, expires_at: session.expires_at, features: session.features };
}
