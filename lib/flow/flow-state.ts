import type { Session } from "@/generated/prisma/client";
import { db } from "@/lib/db/client";
import type { WorkflowSnapshot } from "@/lib/sessions/present";

/**
 * GET /api/v2/flow: what the hosted page needs to render the session: who
 * asks (the app's name), the steps in order with their progress, and where
 * to return. No personal data.
 */
export async function flowState(session: Session) {
  const prisma = await db();
  const [app, checks] = await Promise.all([
    prisma.app.findUniqueOrThrow({ where: { id: session.appId }, select: { name: true } }),
    prisma.checkResult.findMany({ where: { sessionId: session.id }, select: { type: true, status: true, attempts: true } }),
  ]);
  const byType = new Map(checks.map((c) => [c.type, c]));
  const snapshot = session.workflowSnapshot as WorkflowSnapshot;
  const metadata = session.metadata as Record<string, unknown>;
  return {
    session_id: session.id,
    status: session.status,
    app: { name: app.name },
    workflow: { name: snapshot.name },
    steps: session.features.map((type) => ({
      type,
      status: byType.get(type)?.status ?? "pending",
      attempts: byType.get(type)?.attempts ?? 0,
    })),
    location: { expected_point: metadata.expected_lat !== undefined },
    redirect_url: session.redirectUrl,
    expires_at: session.expiresAt.toISOString(),
  };
}
