import type { Session } from "@/generated/prisma/client";
import type { Tx } from "@/lib/db/client";
import { enqueueSessionEvent } from "@/lib/webhooks/outbox";
import { releaseSessionFaces } from "@/lib/faces/gallery";
import { saveSessionProofs } from "@/lib/identity/proofs";
import { purgeArtifacts } from "@/lib/artifacts/artifacts";
import { isTerminal } from "./statuses";

/**
 * Everything that follows a session reaching an outcome, in the same
 * transaction: its event (spec 6) and, at a terminal state, the end of the
 * captured images and templates (docs/hosted-flow.md "Image retention"), after an
 * approved session bound to an account saved its proofs to that account
 * (lib/identity/proofs.ts); a session that ends without approval also gives
 * back the faces it enrolled.
 */
export async function settleSessionOutcome(tx: Tx, session: Session, status: string, at: Date) {
  await enqueueSessionEvent(tx, session, status, at);
  if (status === "APPROVED") await saveSessionProofs(tx, session, at);
  if (isTerminal(status)) await purgeArtifacts(tx, session);
  if (isTerminal(status) && status !== "APPROVED") await releaseSessionFaces(tx, session.id);
}
