import type { Session } from "@/generated/prisma/client";
import { completeSession } from "@/lib/sessions/complete-session";
import { vocabularyValue } from "@/lib/contract-vocabulary";
import { DECIDED_STATUSES, isDecided } from "@/lib/sessions/statuses";
import { returnUrlWithHint } from "./return-url";

/**
 * POST /api/v2/flow/finish: the person is done; the decision engine decides.
 * Returns the status and where to send the person (`redirect_url` with the
 * status hint, lib/flow/return-url.ts). Finishing again is answered the same:
 * the decision does not change.
 */
export async function finishFlow(session: Session) {
  // A decided session answers with its outcome (the route's answersDecidedSession).
  const decided = isDecided(session.status) ? session : await completeSession(session.id);
  return {
    session_id: decided.id,
    status: vocabularyValue(DECIDED_STATUSES, decided.status, "finished session's status"),
    redirect_url: returnUrlWithHint(decided),
  };
}
