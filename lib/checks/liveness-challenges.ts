import type { Session } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import {
  assertChallengeAllowed,
  assertLivenessNotPassed,
  attemptsUsed,
  BURST_FRAMES,
  CHALLENGE_TTL_SECONDS,
  challengeColours,
  colourFields,
  INSTRUCTIONS,
  livenessAttemptsLeft,
  livenessCheck,
  pickActions,
  type ChallengeOptions,
} from "@/lib/liveness/challenges";
import { lockOpenSession } from "@/lib/sessions/open-session";
import type { WorkflowSnapshot } from "@/lib/sessions/present";

/**
 * The liveness challenge of a verification session (lib/liveness/challenges.ts
 * has the challenge itself, which face sign-in and face activation share):
 * what the session's workflow asks, issued under the session's lock.
 */

function livenessSettings(session: Session) {
  const settings = (session.workflowSnapshot as WorkflowSnapshot).settings.liveness;
  if (!settings || !session.features.includes("liveness")) {
    throw new ApiError("invalid_request", { message: "This session has no liveness step" });
  }
  return settings;
}

/** Refuses a burst once liveness passed (a challenge issued before the pass, used after it). */
export async function assertBurstAllowed(session: Session) {
  livenessSettings(session);
  assertLivenessNotPassed(await livenessCheck(await db(), session.id));
}

/**
 * POST /api/v2/antispoof/challenge. Under the session's row lock (the
 * session still open: lockOpenSession), so two
 * requests at once cannot both take the last attempt: refuses once liveness
 * passed or every attempt is used, retires the previous unused challenge,
 * and issues a new one. `attempts_left` is what remains AFTER this one.
 */
export async function issueChallenge(session: Session, options: ChallengeOptions = {}) {
  const settings = livenessSettings(session);
  const actions = pickActions(settings.actions, settings.actions_per_challenge);
  const colours = challengeColours(options);
  const at = now();
  const expiresAt = new Date(at.getTime() + CHALLENGE_TTL_SECONDS * 1000);
  const prisma = await db();
  const { challenge, issued } = await prisma.$transaction(async (tx) => {
    await lockOpenSession(tx, session.id);
    const check = await livenessCheck(tx, session.id);
    assertLivenessNotPassed(check);
    const before = await attemptsUsed(tx, session.id, check);
    assertChallengeAllowed(before, settings.max_attempts);
    await tx.livenessChallenge.updateMany({ where: { sessionId: session.id, usedAt: null }, data: { usedAt: at } });
    const created = await tx.livenessChallenge.create({ data: { sessionId: session.id, actions, colours, expiresAt } });
    return { challenge: created, issued: before + 1 };
  });
  return {
    challenge_id: challenge.id,
    actions,
    instructions: actions.map((action) => ({ action, text: INSTRUCTIONS[action] })),
    frames: { min: BURST_FRAMES.min, max: BURST_FRAMES.max, recommended: settings.frames },
    ...colourFields(colours),
    expires_at: expiresAt.toISOString(),
    expires_in: CHALLENGE_TTL_SECONDS,
    attempts_left: livenessAttemptsLeft(issued, settings.max_attempts),
  };
}
