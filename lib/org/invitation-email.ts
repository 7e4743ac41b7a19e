import { now } from "@/lib/clock";
import { decryptString } from "@/lib/crypto/encryption";
import { db } from "@/lib/db/client";
import { logger } from "@/lib/log/logger";
import { sendMail } from "@/lib/mail/mailer";
import { ACTIVATION_LINK_DAYS, activationTokenHash, activationUrl } from "./activation-links";
import type { InvitationEmailJob } from "./invitations";

/**
 * The background job that emails one invitation (queued by add members and
 * re-send invite). It sends only the member's current link: a link that a
 * newer one superseded, or a member who activated, was deactivated or
 * removed meanwhile, is dropped without mail. Once the mail server accepts
 * the message an `invited` member becomes `link_sent`. A failure to send
 * throws, and the queue retries with backoff (lib/jobs/queue.ts).
 */
export type InvitationOutcome = "sent" | "superseded";

export function invitationMessage(organization: string, firstName: string, url: string) {
  const greeting = firstName ? `Hello ${firstName},` : "Hello,";
  return {
    subject: `${organization} invited you: activate your account`,
    text: [
      greeting,
      "",
      `${organization} added you to its team. Activate your account with this link: you sign in with this email address and take a short live selfie.`,
      "",
      url,
      "",
      `The link works for ${ACTIVATION_LINK_DAYS} days and only for you. If you did not expect this invitation, ignore this email.`,
    ].join("\n"),
  };
}

export async function sendInvitationEmail(job: InvitationEmailJob): Promise<InvitationOutcome> {
  const token = decryptString(job.token_sealed);
  const hash = activationTokenHash(token);
  const prisma = await db();
  const member = await prisma.member.findUnique({ where: { memberId: job.member_id }, include: { organization: { select: { name: true } } } });
  const current =
    member && hash && member.activationTokenHash === hash && (member.status === "invited" || member.status === "link_sent") && (member.activationExpiresAt?.getTime() ?? 0) > now().getTime();
  if (!member || !current) {
    logger.info("invitation email dropped: the link was superseded or the member changed", { member_id: job.member_id });
    return "superseded";
  }
  await sendMail({ to: member.email, ...invitationMessage(member.organization.name, member.firstName, activationUrl(token)) });
  await prisma.member.updateMany({
    where: { id: member.id, activationTokenHash: hash },
    data: { linkSentAt: now(), ...(member.status === "invited" ? { status: "link_sent" } : {}) },
  });
  return "sent";
}
