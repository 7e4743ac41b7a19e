import type { Session } from "@/generated/prisma/client";
import { declinedWhateverFollows, type CheckOutcome } from "@/lib/decisions/decide";
import { completeSessionIf } from "@/lib/sessions/complete-session";

/**
 * Checks whose `failed` result the person cannot take back: the document
 * step's (id_verification, and age read from the same document). A `review`
 * is never final (a reviewer can still approve), and checks with tries left
 * (liveness, credential, location) or that follow them (face match, face
 * uniqueness) are decided when the person finishes.
 */
const FINAL_WHEN_FAILED: ReadonlySet<string> = new Set(["id_verification", "age"]);

export function isFinalFailure(check: { type: string; status: string }): boolean {
  return check.status === "failed" && FINAL_WHEN_FAILED.has(check.type);
}

/**
 * docs/sessions.md "Decision engine": once a final
 * failure already makes the decision engine decline whatever the remaining
 * checks give (lib/decisions/decide.ts), the session is decided there, as at
 * finish (DECLINED, its event, images purged): the steps left are neither
 * run nor billed, and a later step is refused (409 `session_closed`).
 * Returns the decided session, or null when the flow goes on.
 */
export async function stopAtDecisiveFailure(session: Session): Promise<Session | null> {
  return completeSessionIf(session.id, (current, results: readonly CheckOutcome[]) =>
    declinedWhateverFollows(current.features, results.filter(isFinalFailure)),
  );
}
