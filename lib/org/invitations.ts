import { ABUSE_LIMITS } from "@/lib/http/abuse-limits";
import type { Member } from "@/generated/prisma/client";
import type { RosterCaller } from "./caller";
import { z } from "zod";
import { now } from "@/lib/clock";
import { encryptString } from "@/lib/crypto/encryption";
import { db, type Tx } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import { consumeRateLimit } from "@/lib/http/rate-limit";
import { enqueueJobs, jobQueue, QUEUES, type NewJob } from "@/lib/jobs/queue";
import { mailMode } from "@/lib/mail/mailer";
import { newActivationLink, type ActivationLink } from "./activation-links";
import { findMember } from "./find-member";
import { planInvite, statusAfterInvite, type InvitePlan } from "./invite-method";
import { presentMember } from "./list-members";

/**
 * Invitations (spec 3.2, 4.6): what a member row becomes when an invitation
 * goes out, and the email job that carries its link. The link's token is
 * sealed (AES-256-GCM) in the job, never stored in clear.
 */
export type Invitation = {
  data: Pick<Member, "status" | "inviteMethod" | "activationTokenHash" | "activationExpiresAt" | "linkSentAt">;
  link: ActivationLink | null;
};

export const mailAvailable = () => mailMode() !== "disabled";

/** The member fields an invitation sets, and its new link (which supersedes any older one). */
export function invitation(plan: InvitePlan, at: Date): Invitation {
  const link = plan.returnLink || plan.email ? newActivationLink(at) : null;
  return {
    link,
    data: {
      status: statusAfterInvite(plan),
      inviteMethod: plan.method,
      activationTokenHash: link?.tokenHash ?? null,
      activationExpiresAt: link?.expiresAt ?? null,
      linkSentAt: plan.returnLink ? at : null,
    },
  };
}

export type InvitationEmailJob = { member_id: string; token_sealed: string };

export function invitationEmailJob(memberId: string, link: ActivationLink): NewJob {
  const data: InvitationEmailJob = { member_id: memberId, token_sealed: encryptString(link.token) };
  return { name: QUEUES.invitationEmail, data };
}

/** POST /api/sdk/members/{member_id}/invite body: optional; `notify` (default true) also emails the link. */
export const InviteBody = z.object({ notify: z.boolean().default(true) }).strict().optional();

/** Re-sending invitations: 10 requests per minute per calling app (spec 8). */
export const INVITE_REQUESTS_PER_MINUTE = ABUSE_LIMITS.inviteResend.perAppPerMinute;

export type ResentInvite = { member: ReturnType<typeof presentMember>; activation_link: string | null; notified: boolean };

/**
 * POST /api/sdk/members/{member_id}/invite: a new activation link for a
 * member who is not active and not deactivated (409 `already_active`,
 * `deactivated`); it supersedes the old link at once. The link is returned
 * and, with `notify` (default true) and mail configured, emailed too (a job
 * queued in the link's transaction). `commit`, when given, runs in that
 * transaction with the answer (the Idempotency-Key's stored answer: a retry
 * after a crash replays this link instead of superseding it and mailing again).
 */
export async function resendInvite(
  app: RosterCaller,
  ref: string,
  notify: boolean,
  commit?: (tx: Tx, sent: ResentInvite) => Promise<void>,
  count = true,
): Promise<{ data: ResentInvite; headers: Record<string, string> }> {
  const rateHeaders = count ? await consumeRateLimit("sdk-invite", app.id, INVITE_REQUESTS_PER_MINUTE, 60) : {};
  const member = await findMember(app.organizationId, ref);
  if (!member) throw new ApiError("not_found", { message: "No member with that id, email or svc_id in this organization" });
  if (member.status === "active") throw new ApiError("already_active", { message: "This member is already active" });
  if (member.status === "deactivated") throw new ApiError("deactivated", { message: "This member is deactivated: reactivate them first" });
  const at = now();
  const invite = invitation(planInvite("face", notify, mailAvailable()), at);
  const notified = notify && mailAvailable();
  await jobQueue(); // started before the transaction that queues into it
  const prisma = await db();
  const sent = await prisma.$transaction(async (tx) => {
    // Only while still invitable: a deactivation or an activation that committed meanwhile wins.
    const changed = await tx.member.updateMany({ where: { id: member.id, status: { in: ["invited", "link_sent"] } }, data: invite.data });
    if (changed.count !== 1) return null;
    if (notified && invite.link) await enqueueJobs([invitationEmailJob(member.memberId, invite.link)], tx);
    const updated = await tx.member.findUniqueOrThrow({ where: { id: member.id } });
    const answer: ResentInvite = { member: presentMember(updated), activation_link: invite.link?.url ?? null, notified };
    if (commit) await commit(tx, answer);
    return answer;
  });
  if (!sent) return resendInvite(app, ref, notify, commit, false);
  return { data: sent, headers: rateHeaders };
}
