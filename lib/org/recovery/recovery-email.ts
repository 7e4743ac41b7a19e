import { now } from "@/lib/clock";
import { decryptString, encryptString } from "@/lib/crypto/encryption";
import { db } from "@/lib/db/client";
import { QUEUES, type NewJob } from "@/lib/jobs/queue";
import { logger } from "@/lib/log/logger";
import { sendMail } from "@/lib/mail/mailer";

/**
 * The account-recovery link is always emailed to the member's address on
 * file (spec 4.6), by the background job queue. The link (it carries the
 * session's token) is sealed in the job. A session that ended or expired
 * before the job ran gets no mail.
 */
export type RecoveryEmailJob = { member_id: string; session_id: string; url_sealed: string };

export function recoveryEmailJob(memberId: string, sessionId: string, url: string): NewJob {
  const data: RecoveryEmailJob = { member_id: memberId, session_id: sessionId, url_sealed: encryptString(url) };
  return { name: QUEUES.recoveryEmail, data };
}

export function recoveryMessage(organization: string, url: string) {
  return {
    subject: `${organization}: confirm it is you to recover your account`,
    text: [
      "Hello,",
      "",
      `${organization} started the recovery of your account. Open this link on a phone or computer with a camera and follow the steps: it takes a live selfie and compares it with the face you enrolled.`,
      "",
      url,
      "",
      "The link works for one hour. If you did not ask your helpdesk to recover your account, do not open it and tell them.",
    ].join("\n"),
  };
}

export async function sendRecoveryEmail(job: RecoveryEmailJob): Promise<"sent" | "skipped"> {
  const prisma = await db();
  const [member, session] = await Promise.all([
    prisma.member.findUnique({ where: { memberId: job.member_id }, include: { organization: { select: { name: true } } } }),
    prisma.session.findUnique({ where: { id: job.session_id }, select: { status: true, expiresAt: true } }),
  ]);
  if (!member || member.status !== "active" || !session || !["NOT_STARTED", "IN_PROGRESS"].includes(session.status) || session.expiresAt <= now()) {
    logger.info("recovery email dropped: the session ended or the member is gone", { member_id: job.member_id, session_id: job.session_id });
    return "skipped";
  }
  await sendMail({ to: member.email, ...recoveryMessage(member.organization.name, decryptString(job.url_sealed)) });
  return "sent";
}
