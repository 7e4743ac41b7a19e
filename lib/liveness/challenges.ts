import { randomInt } from "node:crypto";
import { z } from "zod";
import type { Session } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { db, type Db, type Tx } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import { UUID_PATTERN } from "@/lib/http/validation";
import type { LivenessAction } from "@/lib/workflows/settings";
import { vocabularyValue } from "@/lib/contract-vocabulary";
import { drawColours, SCREEN_COLOURS, type ScreenColour } from "./colour-challenge";

/**
 * The active liveness challenge (spec 8: single use, 60 seconds): a random
 * sequence of the workflow's actions the person performs during one burst.
 * Only the session's newest challenge is valid; using one consumes it,
 * whatever the burst's outcome.
 *
 * ATTEMPTS. Every challenge issued is one of the session's liveness attempts
 * (the workflow's `liveness.max_attempts`), whether or not a burst ever uses
 * it: otherwise someone holding a recorded video could ask again and again
 * until the random order of actions matched the recording. Once liveness
 * passed, no further challenge is issued (the step is done; nothing is
 * judged or billed again).
 */

export const CHALLENGE_TTL_SECONDS = 60;
export const BURST_FRAMES = { min: 3, max: 8 } as const;

export const INSTRUCTIONS: Record<LivenessAction, string> = {
  turn_left: "Turn your head to your left, then back to the centre",
  turn_right: "Turn your head to your right, then back to the centre",
  blink: "Blink slowly",
  look_up: "Tilt your head back to look up, then back to the centre",
  look_down: "Tilt your head forward to look down, then back to the centre",
  smile: "Smile broadly, then relax your face",
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


/** The attempts a session still has once `issued` challenges were issued (never below 0). */
export function livenessAttemptsLeft(issued: number, maxAttempts: number): number {
  return Math.max(0, maxAttempts - issued);
}

/** The rule: a new challenge only while fewer than `max_attempts` were issued (429 `too_many_attempts`). */
export function assertChallengeAllowed(issued: number, maxAttempts: number) {
  if (livenessAttemptsLeft(issued, maxAttempts) === 0) {
    throw new ApiError("too_many_attempts", {
      message: `All ${maxAttempts} liveness attempts of this session are used (each challenge issued counts as one)`,
      data: { attempts: issued, max_attempts: maxAttempts },
    });
  }
}

/** A passed liveness check is final: no new challenge, no new burst (409 `liveness_already_passed`). */
export function assertLivenessNotPassed(check: { status: string } | null) {
  if (check?.status === "passed") {
    throw new ApiError("liveness_already_passed", { message: "Liveness already passed in this session; there is nothing to retake" });
  }
}

export function livenessCheck(tx: Tx | Db, sessionId: string) {
  return tx.checkResult.findUnique({ where: { sessionId_type: { sessionId, type: "liveness" } }, select: { status: true, attempts: true } });
}

/**
 * The liveness attempts a session used: the challenges issued to it (at
 * least the bursts recorded, for sessions whose challenges were purged).
 */
export async function attemptsUsed(tx: Tx | Db, sessionId: string, check: { attempts: number } | null): Promise<number> {
  const issued = await tx.livenessChallenge.count({ where: { sessionId } });
  return Math.max(issued, check?.attempts ?? 0);
}

/** The `attempts` of the liveness step in GET /api/v2/flow. */
export async function livenessAttemptsUsed(tx: Tx | Db, sessionId: string): Promise<number> {
  return attemptsUsed(tx, sessionId, await livenessCheck(tx, sessionId));
}

// --- The colour challenge (lib/liveness/colour-challenge.ts) -----------------

/** POST /api/v2/antispoof/challenge's optional body: `skip_colours` for a person who cannot look at flashing colours. */
export const ChallengeBody = z
  .object({
    skip_colours: z.boolean().optional().meta({
      description:
        "true: the person cannot look at flashing colours. No colours are drawn; a burst that passes every other liveness rule is recorded as `review` (`colour_challenge_skipped`), never `passed`.",
    }),
  })
  .optional();
export type ChallengeOptions = NonNullable<z.infer<typeof ChallengeBody>>;

/** One screen colour per frame of the largest burst, or none for the photosensitive alternative. */
export function challengeColours(options: ChallengeOptions = {}): ScreenColour[] {
  return options.skip_colours ? [] : drawColours(BURST_FRAMES.max);
}

/** The challenge answer's colour fields: the page lights the screen with `colours[k]` while it takes frame k. */
export function colourFields(colours: readonly string[]) {
  return { colours: colours.map((c) => vocabularyValue(SCREEN_COLOURS, c, "screen colour")), colour_settle_ms: COLOUR_SETTLE_MS };
}

/**
 * The least time a colour is on screen before its frame is taken: the
 * camera's exposure and pipeline latency (a frame shows the light of 100-250
 * ms earlier), with margin.
 */
export const COLOUR_SETTLE_MS = 350 as const;

/** A challenge as the burst's judge needs it: its actions and the server's copy of its colours. */
export type IssuedChallenge = { actions: LivenessAction[]; colours: string[] };

/** The burst upload's text field (the frames are its file parts); a challenge id that is not a UUID is refused by consumeChallenge. */
export const BurstFields = z.object({
  challenge_id: z.string().regex(UUID_PATTERN).meta({ description: "The `challenge_id` of POST /api/v2/antispoof/challenge." }),
});

/**
 * Uses up a challenge of this session: 403 `invalid_challenge` when unknown,
 * of another session, already used or superseded; 400 `challenge_expired`
 * after 60 seconds.
 */
export async function consumeChallenge(session: Session, challengeId: string | undefined): Promise<IssuedChallenge> {
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
  return { actions: challenge.actions as LivenessAction[], colours: challenge.colours };
}
