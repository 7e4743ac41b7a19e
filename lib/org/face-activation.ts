import type { Member } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { roundScore, templateSimilarity } from "@/lib/faces/templates";
import { ApiError } from "@/lib/http/api-error";
import type { Upload } from "@/lib/http/read-upload";
import { UUID_PATTERN } from "@/lib/http/validation";
import { faceProofActions, faceSignInThreshold } from "@/lib/oidc/face-sign-in";
import { readProfile } from "@/lib/identity/profile";
import { enrollFace } from "@/lib/identity/proofs";
import { BURST_FRAMES, CHALLENGE_TTL_SECONDS, challengeColours, colourFields, INSTRUCTIONS, pickActions, type IssuedChallenge } from "@/lib/liveness/challenges";
import { burstFrames, judgeBurst } from "@/lib/liveness/judge-burst";
import type { LivenessAction } from "@/lib/workflows/settings";
import { activationTokenHash } from "./activation-links";
import { assertSeatsPayable } from "./billing/seats";
import { ensureSubscription } from "./billing/subscription";
import { presentMember } from "./list-members";
import { prepareQuery, runPreparedInTransaction, typedSql } from "@/lib/db/typed-sql";

/** Row locks for the transaction: the member whose link is scanned, the account a face is enrolled on. */
const memberForUpdate = prepareQuery("member_for_update", (v: { id: number }) => typedSql.selectFrom("members").select("id").where("id", "=", v.id).forUpdate());
const accountForUpdate = prepareQuery("account_for_update", (v: { id: string }) => typedSql.selectFrom("accounts").select("id").where("id", "=", v.id).forUpdate());

/**
 * Face activation (spec 3.2 "member scans face"; docs/organization-api.md):
 * the invited person opens their activation link, signs in with the
 * invited email (email code, or face when their account has one), and
 * takes a live selfie burst judged by the same liveness engine as a
 * session. An account without an enrolled face gets this one enrolled; an
 * account that has one must match it (1:1, the face-match threshold), so
 * whoever holds the mailbox cannot swap in another face. Then the member
 * is `active`, bound (`svc_id`) and a seat.
 *
 * A link allows SCANS_PER_LINK scans; after that (or when superseded,
 * expired, used, or the member was deactivated) it is `invalid_activation`.
 */
export const SCANS_PER_LINK = 5;

export const invalidActivation = () =>
  new ApiError("invalid_activation", { message: "This activation link is invalid, was replaced by a newer one, or has expired: ask your organization for a new invitation" });

export type Activation = { member: Member; organization: string; tokenHash: string };

/** The member a live link activates, or null (unknown, superseded, expired, used, deactivated). */
export async function findActivation(token: string, at: Date = now()): Promise<Activation | null> {
  const tokenHash = activationTokenHash(token);
  if (!tokenHash) return null;
  const prisma = await db();
  const member = await prisma.member.findUnique({ where: { activationTokenHash: tokenHash }, include: { organization: { select: { name: true } } } });
  if (!member || (member.status !== "invited" && member.status !== "link_sent")) return null;
  if (!member.activationExpiresAt || member.activationExpiresAt.getTime() <= at.getTime()) return null;
  const { organization, ...row } = member;
  return { member: row, organization: organization.name, tokenHash };
}

/** The link's member, for the account signed in: 404 for a dead link, 403 when signed in as someone else. */
export async function activationFor(token: string, accountId: string): Promise<Activation> {
  const activation = await findActivation(token);
  if (!activation) throw invalidActivation();
  const prisma = await db();
  const account = await prisma.account.findUnique({ where: { id: accountId }, select: { email: true } });
  if (!account || account.email.toLowerCase() !== activation.member.email.toLowerCase()) {
    throw new ApiError("forbidden", { message: "Sign in with the email address this invitation was sent to" });
  }
  return activation;
}

async function scansUsed(activation: Activation): Promise<number> {
  const prisma = await db();
  return prisma.memberActivationChallenge.count({ where: { memberId: activation.member.id, tokenHash: activation.tokenHash } });
}

export async function activationScansLeft(activation: Activation): Promise<number> {
  return Math.max(0, SCANS_PER_LINK - (await scansUsed(activation)));
}

/** POST /activate/{token}/face/challenge: a liveness challenge (one of the link's scans). */
export async function issueActivationChallenge(activation: Activation) {
  const at = now();
  const actions = pickActions(faceProofActions(), 2);
  const colours = challengeColours();
  const expiresAt = new Date(at.getTime() + CHALLENGE_TTL_SECONDS * 1000);
  const prisma = await db();
  const { challenge, used } = await prisma.$transaction(async (tx) => {
    // One at a time per member, so parallel requests cannot take more than the link's scans.
    await runPreparedInTransaction(tx, memberForUpdate, { id: activation.member.id });
    const used = await tx.memberActivationChallenge.count({ where: { memberId: activation.member.id, tokenHash: activation.tokenHash } });
    if (used >= SCANS_PER_LINK) {
      throw new ApiError("too_many_attempts", { message: `All ${SCANS_PER_LINK} face scans of this link are used: ask your organization for a new invitation`, data: { attempts: used, max_attempts: SCANS_PER_LINK } });
    }
    await tx.memberActivationChallenge.updateMany({ where: { memberId: activation.member.id, usedAt: null }, data: { usedAt: at } });
    const challenge = await tx.memberActivationChallenge.create({ data: { memberId: activation.member.id, tokenHash: activation.tokenHash, actions, colours, expiresAt } });
    return { challenge, used };
  });
  return {
    challenge_id: challenge.id,
    actions,
    instructions: actions.map((action) => ({ action, text: INSTRUCTIONS[action] })),
    ...colourFields(colours),
    frames: { min: BURST_FRAMES.min, max: BURST_FRAMES.max, recommended: 5 },
    expires_at: expiresAt.toISOString(),
    expires_in: CHALLENGE_TTL_SECONDS,
    attempts_left: SCANS_PER_LINK - used - 1,
  };
}

async function consumeChallenge(activation: Activation, challengeId: string | undefined): Promise<IssuedChallenge> {
  if (!challengeId || !UUID_PATTERN.test(challengeId)) throw new ApiError("invalid_challenge", { message: "Send the challenge_id of a face activation challenge" });
  const at = now();
  const prisma = await db();
  const claimed = await prisma.memberActivationChallenge.updateMany({ where: { id: challengeId, memberId: activation.member.id, tokenHash: activation.tokenHash, usedAt: null }, data: { usedAt: at } });
  const challenge = await prisma.memberActivationChallenge.findUnique({ where: { id: challengeId } });
  if (claimed.count !== 1 || !challenge) throw new ApiError("invalid_challenge", { message: "This challenge is unknown, already used or replaced by a newer one; start the face scan again" });
  if (challenge.expiresAt <= at) throw new ApiError("challenge_expired", { message: `The challenge expired (${CHALLENGE_TTL_SECONDS} s); start the face scan again` });
  return { actions: challenge.actions as LivenessAction[], colours: challenge.colours };
}

/** POST /activate/{token}/face: judges the burst; on a live face (matching an enrolled one) the member is active and bound. */
export async function activateByFace(activation: Activation, accountId: string, upload: Upload) {
  const frames = burstFrames(upload);
  const challenge = await consumeChallenge(activation, upload.fields.challenge_id);
  const judged = await judgeBurst(frames, challenge);
  const attemptsLeft = await activationScansLeft(activation);
  if (judged.verdict.status !== "passed" || !judged.best) {
    throw new ApiError("face_not_matched", { message: "We could not confirm a live person: follow the instructions on screen and try again", data: { reason: "not_live", attempts_left: attemptsLeft } });
  }
  const at = now();
  const live = judged.best.template;
  await assertSeatsPayable(activation.member.organizationId, at);
  const prisma = await db();
  const member = await prisma.$transaction(async (tx) => {
    // Any face already on the account (valid or stale) must be this one; only an account without a face gets it enrolled.
    await runPreparedInTransaction(tx, accountForUpdate, { id: accountId });
    const enrolled = (await readProfile(accountId, at, tx)).face;
    if (enrolled && roundScore(templateSimilarity(enrolled.content, live)) < faceSignInThreshold()) {
      throw new ApiError("face_not_matched", { message: "This is not the face enrolled on your account: try again in good light", data: { reason: "not_matched", attempts_left: attemptsLeft } });
    }
    const taken = await tx.member.findFirst({ where: { organizationId: activation.member.organizationId, svcId: accountId, NOT: { id: activation.member.id } }, select: { memberId: true } });
    if (taken) throw new ApiError("already_active", { message: "Your account is already bound to another seat of this organization" });
    const done = await tx.member.updateMany({
      where: { id: activation.member.id, activationTokenHash: activation.tokenHash, status: { in: ["invited", "link_sent"] } },
      data: { status: "active", svcId: accountId, activatedAt: at, activationTokenHash: null, activationExpiresAt: null },
    });
    if (done.count !== 1) throw invalidActivation();
    if (!enrolled) await enrollFace(tx, accountId, live, at);
    await ensureSubscription(tx, activation.member.organizationId, at);
    return tx.member.findUniqueOrThrow({ where: { id: activation.member.id } });
  });
  return { activated: true, member: presentMember(member) };
}
