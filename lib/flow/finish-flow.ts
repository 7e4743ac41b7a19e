import type { Session } from "@/generated/prisma/client";
import { completeSession } from "@/lib/sessions/complete-session";

/**
 * POST /api/v2/flow/finish: the person is done; the decision engine decides.
 * Returns the status and where to send the person: `redirect_url` with
 * `?status=<hint>&session_id=` (a hint only: the decision endpoint or the
 * webhook is authoritative).
 */
export async function finishFlow(session: Session) {
  const decided = await completeSession(session.id);
  let redirect: string | null = null;
  if (decided.redirectUrl) {
    const url = new URL(decided.redirectUrl);
    url.searchParams.set("status", decided.status.toLowerCase());
    url.searchParams.set("session_id", decided.id);
    redirect = url.toString();
  }
  return { session_id: decided.id, status: decided.status, redirect_url: redirect };
}
