import { z } from "zod";
import { now } from "@/lib/clock";
import { env } from "@/lib/config/env";
import { hashSecret, randomToken } from "@/lib/crypto/secrets";
import { db } from "@/lib/db/client";
import { ABUSE_LIMITS } from "@/lib/http/abuse-limits";
import { ApiError } from "@/lib/http/api-error";
import { consumeRateLimit } from "@/lib/http/rate-limit";
import { parseOrThrow } from "@/lib/http/validation";
import { DEFAULT_LOCALE, messagesFor } from "@/lib/i18n";
import { mailMode, sendMailInBackground } from "@/lib/mail/mailer";
import { isEmailVerified, markEmailVerified } from "@/lib/tenancy/verify-developer-email";
import { centsToAmount, WELCOME_CREDIT_CENTS } from "@/lib/billing/money";
import { EMAIL_VERIFICATION_TTL_HOURS, VERIFY_EMAIL_PAGE_PATH } from "./public-constants";

export const ConfirmEmailBody = z.strictObject({ token: z.string().min(1).max(200) });

/**
 * How a verification link went out: `sent` (mailed; in development without
 * SMTP_HOST, printed on the server console), or `unavailable` (a production
 * server without outgoing mail: the operator verifies with
 * `developer:verify-email`).
 */
export type EmailVerificationDelivery = "sent" | "unavailable";

/** Where the link points: the token rides in the fragment, so it never reaches a server log or a Referer. */
export function emailVerificationLink(token: string): string {
  return `${env().PUBLIC_BASE_URL}${VERIFY_EMAIL_PAGE_PATH}#token=${encodeURIComponent(token)}`;
}

/**
 * Mails the developer a new single-use verification link, valid
 * EMAIL_VERIFICATION_TTL_HOURS; only its SHA-256 is stored. The mail goes
 * out after the caller answers (a failure is logged).
 */
export async function mailEmailVerification(developer: { id: string; email: string }): Promise<EmailVerificationDelivery> {
  if (mailMode() === "disabled") return "unavailable";
  const token = randomToken("emv_", 32);
  const prisma = await db();
  await prisma.developerEmailVerification.create({
    data: {
      developerId: developer.id,
      tokenHash: hashSecret(token),
      expiresAt: new Date(now().getTime() + EMAIL_VERIFICATION_TTL_HOURS * 3_600_000),
    },
  });
  const text = messagesFor(DEFAULT_LOCALE).portal.emailVerification.mail;
  sendMailInBackground(
    { to: developer.email, subject: text.subject, text: text.body(emailVerificationLink(token), EMAIL_VERIFICATION_TTL_HOURS) },
    { log: "email verification mail not sent", context: { developerId: developer.id } },
  );
  return "sent";
}

/**
 * "Send the link again" for a signed-in developer whose email is not
 * verified: 409 `email_already_verified` once it is, 503
 * `mail_not_configured` without outgoing mail, 429 `rate_limited` beyond
 * ABUSE_LIMITS.portalEmailVerification per developer and hour.
 */
export async function resendEmailVerification(developer: { developerId: string; email: string }): Promise<{ email_verification: "sent" }> {
  if (await isEmailVerified(developer.developerId)) throw new ApiError("email_already_verified");
  if (mailMode() === "disabled") throw new ApiError("mail_not_configured");
  await consumeRateLimit("portal-email-verification", `developer:${developer.developerId}`, ABUSE_LIMITS.portalEmailVerification.perDeveloperPerHour, 3600);
  await mailEmailVerification({ id: developer.developerId, email: developer.email });
  return { email_verification: "sent" };
}

/**
 * Follows a verification link: the token is used up in the same transaction
 * that marks the email verified and grants the welcome credit
 * (markEmailVerified). A second use, an expired or unknown token: 400
 * `email_verification_invalid`, and nothing changes. Every other open link
 * of that developer is closed with it.
 */
export async function confirmEmail(input: unknown): Promise<{ email_verified: true; welcome_credit: number }> {
  const { token } = parseOrThrow(ConfirmEmailBody, input, "body");
  const prisma = await db();
  const at = now();
  const verified = await prisma.$transaction(async (tx) => {
    const link = await tx.developerEmailVerification.findUnique({ where: { tokenHash: hashSecret(token) } });
    if (!link) throw new ApiError("email_verification_invalid");
    const used = await tx.developerEmailVerification.updateMany({
      where: { id: link.id, usedAt: null, expiresAt: { gt: at } },
      data: { usedAt: at },
    });
    if (used.count !== 1) throw new ApiError("email_verification_invalid");
    await tx.developerEmailVerification.updateMany({ where: { developerId: link.developerId, usedAt: null }, data: { usedAt: at } });
    return markEmailVerified(tx, link.developerId);
  });
  return { email_verified: true, welcome_credit: verified.welcomeCreditGranted ? centsToAmount(WELCOME_CREDIT_CENTS) : 0 };
}
