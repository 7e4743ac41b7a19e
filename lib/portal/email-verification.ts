import { z } from "zod";
import { db } from "@/lib/db/client";
import { ABUSE_LIMITS } from "@/lib/http/abuse-limits";
import { ApiError } from "@/lib/http/api-error";
import { consumeRateLimit } from "@/lib/http/rate-limit";
import { parseOrThrow } from "@/lib/http/validation";
import { DEFAULT_LOCALE, messagesFor } from "@/lib/i18n";
import { mailMode, sendMailInBackground } from "@/lib/mail/mailer";
import { markEmailVerified } from "@/lib/tenancy/verify-developer-email";
import { centsToAmount, WELCOME_CREDIT_CENTS } from "@/lib/billing/money";
import type { WelcomeCreditWithheld } from "@/lib/billing/welcome-credit";
import { EMAIL_VERIFICATION_TTL_HOURS, VERIFY_EMAIL_PAGE_PATH } from "./public-constants";
import { issueLinkToken, portalLink, useLinkToken } from "./single-use-link";

export const ConfirmEmailBody = z.strictObject({ token: z.string().min(1).max(200) });

/**
 * How a verification link went out: `sent` (mailed; in development without
 * SMTP_HOST, printed on the server console), or `unavailable` (a production
 * server without outgoing mail: the operator verifies with
 * `developer:verify-email`).
 */
export type EmailVerificationDelivery = "sent" | "unavailable";

/**
 * Mails the developer a new single-use verification link, valid
 * EMAIL_VERIFICATION_TTL_HOURS; only its SHA-256 is stored. The mail goes
 * out after the caller answers (a failure is logged).
 */
export async function mailEmailVerification(developer: { id: string; email: string }): Promise<EmailVerificationDelivery> {
  if (mailMode() === "disabled") return "unavailable";
  const prisma = await db();
  const token = await issueLinkToken(prisma.developerEmailVerification, developer.id, "emv_", EMAIL_VERIFICATION_TTL_HOURS * 3_600_000);
  const text = messagesFor(DEFAULT_LOCALE).portal.emailVerification.mail;
  sendMailInBackground(
    { to: developer.email, subject: text.subject, text: text.body(portalLink(VERIFY_EMAIL_PAGE_PATH, token), EMAIL_VERIFICATION_TTL_HOURS) },
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
export async function resendEmailVerification(developer: { developerId: string; email: string; emailVerified: boolean }): Promise<{ email_verification: "sent" }> {
  if (developer.emailVerified) throw new ApiError("email_already_verified");
  if (mailMode() === "disabled") throw new ApiError("mail_not_configured");
  await consumeRateLimit("portal-email-verification", `developer:${developer.developerId}`, ABUSE_LIMITS.portalEmailVerification.perDeveloperPerHour, 3600);
  await mailEmailVerification({ id: developer.developerId, email: developer.email });
  return { email_verification: "sent" };
}

/** What confirming the link answers: `welcome_credit` 100, or 0 with why (`welcome_credit_withheld`). */
export type EmailConfirmed = { email_verified: true; welcome_credit: number; welcome_credit_withheld?: WelcomeCreditWithheld };

/**
 * Follows a verification link: the token is used up in the same transaction
 * that marks the email verified and grants the welcome credit, one per
 * mailbox (markEmailVerified). A second use, an expired or unknown token:
 * 400 `email_verification_invalid`, and nothing changes. Every other open
 * link of that developer is closed with it.
 */
export async function confirmEmail(input: unknown): Promise<EmailConfirmed> {
  const { token } = parseOrThrow(ConfirmEmailBody, input, "body");
  const prisma = await db();
  const verified = await prisma.$transaction(async (tx) =>
    markEmailVerified(tx, await useLinkToken(tx.developerEmailVerification, token, "email_verification_invalid")),
  );
  if (verified.welcomeCreditGranted) return { email_verified: true, welcome_credit: centsToAmount(WELCOME_CREDIT_CENTS) };
  return { email_verified: true, welcome_credit: 0, ...(verified.welcomeCreditWithheld && { welcome_credit_withheld: verified.welcomeCreditWithheld }) };
}
