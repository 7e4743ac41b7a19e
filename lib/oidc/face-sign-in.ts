import { ABUSE_LIMITS } from "@/lib/http/abuse-limits";
import type { Account } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { env } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { roundScore, templateSimilarity } from "@/lib/faces/templates";
import { ApiError } from "@/lib/http/api-error";
import type { Upload } from "@/lib/http/read-upload";
import { UUID_PATTERN } from "@/lib/http/validation";
import { BURST_FRAMES, CHALLENGE_TTL_SECONDS, challengeColours, colourFields, INSTRUCTIONS, pickActions, type IssuedChallenge } from "@/lib/liveness/challenges";
import { burstFrames, judgeBurst } from "@/lib/liveness/judge-burst";
import { FEATURE_SETTINGS, type LivenessAction } from "@/lib/workflows/settings";
import { assertNotLocked, lockIfLimitReached, releaseScan, reserveScan, scanSucceeded, throttleKey } from "./face-sign-in-throttle";
import { validEnrolledFace } from "@/lib/identity/profile";
import { prepareQuery, runPreparedInTransaction, typedSql } from "@/lib/db/typed-sql";

/**
 * Face sign-in (docs/oidc.md "Face sign-in"): the person names their account (the
 * email) and proves it is them with a live face instead of an emailed code.
 * The same liveness engine as a verification session judges a burst of 3 to
 * 8 frames against a random challenge; the best frame must then match the
 * account's enrolled face (1:1, the face-match threshold, no review band).
 *
 * LIMITS. Each challenge issued is one of the sign-in request's tries
 * (three). Failed scans (not live, or not the enrolled face) count on the
 * address across sign-in requests (./face-sign-in-throttle.ts): the fifth
 * in a row answers 429 `too_many_attempts` and locks face sign-in for 15
 * minutes, during which it answers 423 `verification_soft_locked` (the
 * emailed code still works). A success resets the count. A picture too
 * unclear to judge (`no_face`, `face_rescan_required`) uses the try but is
 * not a failed scan.
 *
 * PRIVACY. An address without an account, or an account without a valid
 * enrolled face, gets a challenge and a judged burst like any other and
 * fails as `face_not_matched`: the answers do not tell whether an address
 * has an account or an enrolled face.
 */
export const FACE_SIGN_IN = {
  actionsPerChallenge: 2,
  recommendedFrames: 5,
  triesPerSignIn: ABUSE_LIMITS.faceSignIn.triesPerSignIn,
} as const;

/** 1:1 against the enrolled face: the face-match default threshold, nothing borderline passes. */
export function faceSignInThreshold(): number {
  return FEATURE_SETTINGS.face_match.parse({}).threshold;
}

/** The head movements asked for when a person proves their face outside a workflow: face sign-in, face activation, account recovery (FACE_SIGN_IN_ACTIONS). */
export function faceProofActions(): LivenessAction[] {
  return [...new Set(env().FACE_SIGN_IN_ACTIONS.split(",").map((a) => a.trim() as LivenessAction))];
}

async function accountByEmail(email: string): Promise<Account | null> {
  const prisma = await db();
  return prisma.account.findUnique({ where: { email: email.trim().toLowerCase() } });
}

/** 410 `expired`: the sign-in request ended (completed, or expired and forgotten) while this call ran. */
/** The sign-in request, still open, locked for the transaction. */
const openInteractionForUpdate = prepareQuery("oidc_interaction_open_for_update", (v: { id: string }) =>
  typedSql.selectFrom("oidc_interactions").select("id").where("id", "=", v.id).where("completed_at", "is", null).forUpdate(),
);

export const signInOver = () => new ApiError("expired", { message: "This sign-in request is over or belongs to another browser; start again from the app" });

export type FaceSignInChallenge = {
  challenge_id: string;
  actions: LivenessAction[];
  instructions: Array<{ action: LivenessAction; text: string }>;
  /** The colour challenge: the screen colour of each frame, and how long each shows before its frame. */
  colours: string[];
  colour_settle_ms: number;
  frames: { min: number; max: number; recommended: number };
  expires_at: string;
  expires_in: number;
  attempts_left: number;
};

/** A challenge for the sign-in request `interactionId` as `email`: 423 when locked, 429 once its tries are used. */
export async function issueFaceSignInChallenge(interactionId: string, email: string): Promise<FaceSignInChallenge> {
  const at = now();
  await assertNotLocked(throttleKey(email), at);
  const actions = pickActions(faceProofActions(), FACE_SIGN_IN.actionsPerChallenge);
  const colours = challengeColours();
  const expiresAt = new Date(at.getTime() + CHALLENGE_TTL_SECONDS * 1000);
  const prisma = await db();
  const { challenge, issued } = await prisma.$transaction(async (tx) => {
    // One at a time per sign-in request, so two requests cannot both take the last try.
    const open = await runPreparedInTransaction(tx, openInteractionForUpdate, { id: interactionId });
    if (open.length === 0) throw signInOver();
    const before = await tx.faceSignInChallenge.count({ where: { interactionId } });
    if (before >= FACE_SIGN_IN.triesPerSignIn) {
      throw new ApiError("too_many_attempts", {
        message: `All ${FACE_SIGN_IN.triesPerSignIn} face scans of this sign-in are used; sign in with an emailed code instead`,
        data: { attempts: before, max_attempts: FACE_SIGN_IN.triesPerSignIn },
      });
    }
    await tx.faceSignInChallenge.updateMany({ where: { interactionId, usedAt: null }, data: { usedAt: at } });
    const created = await tx.faceSignInChallenge.create({ data: { interactionId, actions, colours, expiresAt } });
    return { challenge: created, issued: before + 1 };
  });
  return {
    challenge_id: challenge.id,
    actions,
    instructions: actions.map((action) => ({ action, text: INSTRUCTIONS[action] })),
    ...colourFields(colours),
    frames: { min: BURST_FRAMES.min, max: BURST_FRAMES.max, recommended: FACE_SIGN_IN.recommendedFrames },
    expires_at: expiresAt.toISOString(),
    expires_in: CHALLENGE_TTL_SECONDS,
    attempts_left: FACE_SIGN_IN.triesPerSignIn - issued,
  };
}

/** The tries a sign-in request has left. */
export async function faceSignInTriesLeft(interactionId: string): Promise<number> {
  const prisma = await db();
  const issued = await prisma.faceSignInChallenge.count({ where: { interactionId } });
  return Math.max(0, FACE_SIGN_IN.triesPerSignIn - issued);
}

/** Uses up the request's newest challenge: 403 `invalid_challenge`, 400 `challenge_expired` (as a session's). */
async function consumeSignInChallenge(interactionId: string, challengeId: string | undefined): Promise<IssuedChallenge> {
  if (!challengeId || !UUID_PATTERN.test(challengeId)) {
    throw new ApiError("invalid_challenge", { message: "Send the challenge_id of a face sign-in challenge" });
  }
  const prisma = await db();
  const at = now();
  const claimed = await prisma.faceSignInChallenge.updateMany({ where: { id: challengeId, interactionId, usedAt: null }, data: { usedAt: at } });
  const challenge = await prisma.faceSignInChallenge.findFirst({ where: { id: challengeId, interactionId } });
  if (claimed.count !== 1 || !challenge) {
    throw new ApiError("invalid_challenge", { message: "This challenge is unknown, already used or replaced by a newer one; start the face scan again" });
  }
  if (challenge.expiresAt <= at) {
    throw new ApiError("challenge_expired", { message: `The challenge expired (${CHALLENGE_TTL_SECONDS} s); start the face scan again` });
  }
  return { actions: challenge.actions as LivenessAction[], colours: challenge.colours };
}

/** A failed scan (already counted): 429 and the lock when it reached the limit, else 403 `face_not_matched`. */
async function failedScan(key: string, failures: number, at: Date, reason: "not_live" | "not_matched", triesLeft: number): Promise<never> {
  await lockIfLimitReached(key, failures, at);
  throw new ApiError("face_not_matched", {
    message:
      reason === "not_live"
        ? "We could not confirm a live person: follow the instructions on screen and try again"
        : "We could not confirm it is you: try again in good light, or sign in with an emailed code",
    data: { reason, attempts_left: triesLeft },
  });
}

/**
 * Judges a face sign-in burst (frames + challenge_id) for the request
 * `interactionId` as `email`. Returns the account on a live face that
 * matches its enrolled face; otherwise throws (see above).
 */
export async function judgeFaceSignIn(interactionId: string, email: string, upload: Upload): Promise<{ accountId: string; similarity: number }> {
  const frames = burstFrames(upload);
  const challenge = await consumeSignInChallenge(interactionId, upload.fields.challenge_id);
  const at = now();
  const key = throttleKey(email);
  const failures = await reserveScan(key, at);
  let judged: Awaited<ReturnType<typeof judgeBurst>>;
  try {
    judged = await judgeBurst(frames, challenge);
  } catch (err) {
    await releaseScan(key); // a picture that could not be judged is not a failed scan
    throw err;
  }
  const triesLeft = await faceSignInTriesLeft(interactionId);
  if (judged.verdict.status !== "passed" || !judged.best) return failedScan(key, failures, at, "not_live", triesLeft);
  const account = await accountByEmail(email);
  const enrolled = account ? await validEnrolledFace(account.id, at) : null; // a stale or missing face cannot sign in
  const similarity = enrolled ? roundScore(templateSimilarity(enrolled, judged.best.template)) : 0;
  if (!account || !enrolled || similarity < faceSignInThreshold()) return failedScan(key, failures, at, "not_matched", triesLeft);
  await scanSucceeded(key, at);
  const prisma = await db();
  await prisma.account.update({ where: { id: account.id }, data: { lastLoginAt: at } });
  return { accountId: account.id, similarity };
}
