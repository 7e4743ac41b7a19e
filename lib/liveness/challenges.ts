import { randomInt } from "node:crypto";
import type { Session } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import { UUID_PATTERN } from "@/lib/http/validation";
import type { WorkflowSnapshot } from "@/lib/sessions/present";
import type { LivenessAction } from "@/lib/workflows/settings";

/**
 * The active liveness challenge (spec 8: single use, 60 seconds): a random
 * sequence of the workflow's actions the person performs during one burst.
 * Only the session's newest challenge is valid; using one consumes it,
 * whatever the burst's outcome.
 */

export const CHALLENGE_TTL_SECONDS = 60;
export const BURST_FRAMES = { min: 3, max: 8 } as const;

const INSTRUCTIONS: Record<LivenessAction, string> = {
  turn_left: "Turn your head to your left, then back to the centre",
  turn_right: "Turn your head to your right, then back to the centre",
  blink: "Blink slowly",
};

/** Picks `count` actions at random; no action twice in a row when there is a choice. */
export function pickActions(pool: readonly LivenessAction[], count: number, random = randomInt): LivenessAction[] {
  const picked: LivenessAction[] = [];
  for (let i = 0; i < count; i++) {
    const choices = pool.length > 1 ? pool.filter((a) => a !== picked[i - 1]) : pool;
    picked.push(choices[random(choices.length)]!);
  }
  return picked;
}

function livenessSettings(session: Session) {
  const settings = (session.workflowSnapshot as WorkflowSnapshot).settings.liveness;
  if (!settings || !session.features.includes("liveness")) {
    throw new ApiError("invalid_request", { message: "This session has no liveness step" });
  }
  return settings;
}

/** Refuses a new attempt once the workflow's `max_attempts` liveness bursts have failed. */
export async function assertLivenessAttemptsLeft(session: Session) {
  const settings = livenessSettings(session);
  const prisma = await db();
  const check = await prisma.checkResult.findUnique({ where: { sessionId_type: { sessionId: session.id, type: "liveness" } } });
  if (check && check.status !== "passed" && check.attempts >= settings.max_attempts) {
    throw new ApiError("too_many_attempts", {
      message: `The liveness check failed ${check.attempts} times, the most this workflow allows`,
      data: { attempts: check.attempts, max_attempts: settings.max_attempts },
    });
  }
  return { settings, attempts: check?.attempts ?? 0 };
}

export async function issueChallenge(session: Session) {
  const { settings, attempts } = await assertLivenessAttemptsLeft(session);
  const actions = pickActions(settings.actions, settings.actions_per_challenge);
  const at = now();
  const expiresAt = new Date(at.getTime() + CHALLENGE_TTL_SECONDS * 1000);
  const prisma = await db();
  const challenge = await prisma.$transaction(async (tx) => {
    await tx.livenessChallenge.updateMany({ where: { sessionId: session.id, usedAt: null }, data: { usedAt: at } });
    return tx.livenessChallenge.create({ data: { sessionId: session.id, actions, expiresAt } });
  });
  return {
    challenge_id: challenge.id,
    actions,
    instructions: actions.map((action) => ({ action, text: INSTRUCTIONS[action] })),
    frames: { min: BURST_FRAMES.min, max: BURST_FRAMES.max, recommended: settings.frames },
    expires_at: expiresAt.toISOString(),
    expires_in: CHALLENGE_TTL_SECONDS,
    attempts_left: settings.max_attempts - attempts,
  };
}

/**
 * Uses up a challenge of this session: 403 `invalid_challenge` when unknown,
 * of another session, already used or superseded; 400 `challenge_expired`
 * after 60 seconds.
 */
export async function consumeChallenge(session: Session, challengeId: string | undefined): Promise<LivenessAction[]> {
  if (!challengeId || !UUID_PATTERN.test(challengeId)) {
    throw new ApiError("invalid_challenge", { message: "Send the challenge_id of a challenge from POST /api/v2/antispoof/challenge" });
  }
  const prisma = await db();
  const at = now();
  const claimed = await prisma.livenessChallenge.updateMany({
    where: { id: challengeId, sessionId: session.id, usedAt: null },
    data: { usedAt: at },
  });
  const challenge = await prisma.livenessChallenge.findFirst({ where: { id: challengeId, sessionId: session.id } });
  if (claimed.count !== 1 || !challenge) {
    throw new ApiError("invalid_challenge", { message: "This challenge is unknown, already used or replaced by a newer one; request a new challenge" });
  }
  if (challenge.expiresAt <= at) {
    throw new ApiError("challenge_expired", { message: `The challenge expired (${CHALLENGE_TTL_SECONDS} s); request a new one` });
  }
  return challenge.actions as LivenessAction[];
}
