import { ABUSE_LIMITS } from "@/lib/http/abuse-limits";
import { z } from "zod";
import { now } from "@/lib/clock";
import { hashPassword } from "@/lib/crypto/secrets";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import { consumeRateLimit } from "@/lib/http/rate-limit";
import { parseOrThrow } from "@/lib/http/validation";
import { mailMode, sendMailInBackground } from "@/lib/mail/mailer";
import { DEFAULT_LOCALE, messagesFor } from "@/lib/i18n";
import { EmailSchema, PasswordSchema } from "@/lib/tenancy/schemas";

import { endDeveloperSessions } from "./developer-sessions";
import { PASSWORD_RESET_TTL_MINUTES } from "./public-constants";
import { issueLinkToken, portalLink, useLinkToken } from "./single-use-link";

export { PASSWORD_RESET_TTL_MINUTES };
/** Reset mails per hour, per email address and per client IP. */
const MAILS_PER_HOUR_PER_EMAIL = ABUSE_LIMITS.portalPasswordReset.perEmailPerHour;
const MAILS_PER_HOUR_PER_IP = ABUSE_LIMITS.portalPasswordReset.perIpPerHour;

export const RequestPasswordResetBody = z.strictObject({ email: EmailSchema });
export const ResetPasswordBody = z.strictObject({ token: z.string().min(1).max(200), password: PasswordSchema });

/** Where the link points (the token in the fragment). */
export function passwordResetLink(token: string): string {
  return portalLink("/reset-password", token);
}

/**
 * "Forgot password": mails a single-use link to the developer with that
 * email, if there is one. The answer is the same either way (no account
 * enumeration), and the mail is sent after answering, so timing does not
 * tell either. Only the token's SHA-256 is stored. Without outgoing mail in
 * production: 503 `mail_not_configured` (for every address alike).
 */
export async function requestPasswordReset(input: unknown, clientIp: string): Promise<{ requested: true }> {
  const { email } = parseOrThrow(RequestPasswordResetBody, input, "body");
  if (mailMode() === "disabled") throw new ApiError("mail_not_configured");
  await consumeRateLimit("portal-password-reset", { ip: clientIp }, MAILS_PER_HOUR_PER_IP, 3600);
  await consumeRateLimit("portal-password-reset", `email:${email}`, MAILS_PER_HOUR_PER_EMAIL, 3600);
  const prisma = await db();
  const developer = await prisma.developer.findUnique({ where: { email } });
  if (!developer) return { requested: true };
  const token = await issueLinkToken(prisma.developerPasswordReset, developer.id, "pwr_", PASSWORD_RESET_TTL_MINUTES * 60_000);
  const text = messagesFor(DEFAULT_LOCALE).portal.passwordReset.mail;
  sendMailInBackground(
    { to: developer.email, subject: text.subject, text: text.body(passwordResetLink(token), PASSWORD_RESET_TTL_MINUTES) },
    { log: "password reset mail not sent", context: { developerId: developer.id } },
  );
  return { requested: true };
}

/**
 * Sets a new password with a reset link's token: the token is used up in the
 * same transaction (a second use, an expired or unknown token: 400
 * `password_reset_invalid`), every other open link of that developer is
 * closed with it, and every portal session of the developer ends with it
 * (lib/portal/developer-sessions.ts).
 */
export async function resetPassword(input: unknown): Promise<{ reset: true }> {
  const { token, password } = parseOrThrow(ResetPasswordBody, input, "body");
  const passwordHash = await hashPassword(password);
  const prisma = await db();
  const at = now();
  await prisma.$transaction(async (tx) => {
    const developerId = await useLinkToken(tx.developerPasswordReset, token, "password_reset_invalid");
    await tx.developer.update({ where: { id: developerId }, data: { passwordHash, passwordChangedAt: at } });
    await endDeveloperSessions(developerId, tx);
  });
  return { reset: true };
}
