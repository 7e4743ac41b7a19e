import type { Session } from "@/generated/prisma/client";
import { completeSession } from "@/lib/sessions/complete-session";
import { returnUrlWithHint } from "./return-url";

/**
 * POST /api/v2/flow/finish: the person is done; the decision engine decides.
 * Returns the status and where to send the person (`redirect_url` with the
 * status hint, lib/flow/return-url.ts).
 */
export async function finishFlow(session: Session) {
  const decided = await completeSession(session.id);
  return { session_id: decided.id, status: decided.status, redirect_url: returnUrlWithHint(decided) };
}
