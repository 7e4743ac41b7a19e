import { createHmac, randomInt } from "node:crypto";
import { now } from "@/lib/clock";
import { derivedKey, matchesUnderAnyDerivedKey } from "@/lib/crypto/encryption-key";
import { db } from "@/lib/db/client";
import { ABUSE_LIMITS } from "@/lib/http/abuse-limits";
import { abuseKeyOfIp } from "@/lib/http/client-ip";
import { logger } from "@/lib/log/logger";
import { mailMode, MailNotConfiguredError, sendMail } from "@/lib/mail/mailer";
import { STRINGS } from "@/lib/accounts/sign-in-strings";

/**
 * Email one-time codes for signing in.
 * - 6 digits from a CSPRNG; valid 10 minutes; single use; only the newest
 *   code of a sign-in request works (a new one supersedes it).
 * - Stored as an HMAC-SHA256 under a key derived from ENCRYPTION_KEY, salted
 *   with the row id: a copy of the database alone does not reveal codes.
 * - Wrong attempts per code and codes per sign-in request, per email address
 *   and per client IP are limited (ABUSE_LIMITS.loginCode; counted in the
 *   database, so shared by every instance). A code's row keeps the client
 *   IP's abuse key (abuseKeyOfIp: an IPv6 client counts by its /64).
 */
export const LOGIN_CODE = ABUSE_LIMITS.loginCode;

function codeHash(id: string, code: string, key = derivedKey("svc login code")): string {
  return createHmac("sha256", key).update(`${id}:${code}`).digest("hex");
}

/** A code sent before an ENCRYPTION_KEY change still works while the old key is in ENCRYPTION_KEY_PREVIOUS. */
function codeMatches(id: string, code: string, stored: string): boolean {
  return matchesUnderAnyDerivedKey("svc login code", (key) => codeHash(id, code, key), stored);
}

export type SendOutcome = "sent" | "logged" | "too_many" | "mail_not_configured" | "mail_failed";

export async function sendLoginCode(input: {
  interactionId: string;
  email: string;
  appName: string;
  ip: string | null;
}): Promise<SendOutcome> {
  if (mailMode() === "disabled") return "mail_not_configured";
  const prisma = await db();
  const at = now();
  const hourAgo = new Date(at.getTime() - 3600_000);
  const requestIp = input.ip ? abuseKeyOfIp(input.ip) : null;
  const [perInteraction, perEmail, perIp] = await Promise.all([
    prisma.accountLoginCode.count({ where: { interactionId: input.interactionId } }),
    prisma.accountLoginCode.count({ where: { email: input.email, createdAt: { gt: hourAgo } } }),
    requestIp ? prisma.accountLoginCode.count({ where: { requestIp, createdAt: { gt: hourAgo } } }) : 0,
  ]);
  if (
    perInteraction >= LOGIN_CODE.maxPerInteraction ||
    perEmail >= LOGIN_CODE.maxPerEmailPerHour ||
    perIp >= LOGIN_CODE.maxPerIpPerHour
  ) {
    return "too_many";
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  const id = crypto.randomUUID();
  await prisma.$transaction([
    // Only the newest code of a sign-in request works.
    prisma.accountLoginCode.updateMany({
      where: { interactionId: input.interactionId, consumedAt: null },
      data: { consumedAt: at },
    }),
    prisma.accountLoginCode.create({
      data: {
        id,
        interactionId: input.interactionId,
        email: input.email,
        codeHash: codeHash(id, code),
        requestIp,
        createdAt: at,
        expiresAt: new Date(at.getTime() + LOGIN_CODE.ttlSeconds * 1000),
      },
    }),
    prisma.oidcInteraction.update({ where: { id: input.interactionId }, data: { pendingEmail: input.email, pendingMethod: "code" } }),
  ]);
  try {
    const sent = await sendMail({
      to: input.email,
      subject: STRINGS.mail.subject(code),
      text: STRINGS.mail.text(code, input.appName),
    });
    return sent.via === "smtp" ? "sent" : "logged";
  } catch (err) {
    await prisma.accountLoginCode.update({ where: { id }, data: { consumedAt: now() } }).catch(() => {});
    if (err instanceof MailNotConfiguredError) return "mail_not_configured";
    logger.error("login code mail failed", { error: (err as Error).message });
    return "mail_failed";
  }
}

export type VerifyOutcome =
  | { ok: true; email: string }
  | { ok: false; reason: "otp_not_found" | "otp_expired" | "otp_locked" | "otp_invalid"; attemptsLeft: number };

/** Checks a code against the newest unused code of the sign-in request. */
export async function verifyLoginCode(interactionId: string, code: string): Promise<VerifyOutcome> {
  const prisma = await db();
  const row = await prisma.accountLoginCode.findFirst({
    where: { interactionId, consumedAt: null },
    orderBy: { createdAt: "desc" },
  });
  if (!row) return { ok: false, reason: "otp_not_found", attemptsLeft: 0 };
  if (row.expiresAt <= now()) return { ok: false, reason: "otp_expired", attemptsLeft: 0 };
  if (row.attempts >= LOGIN_CODE.maxAttempts) return { ok: false, reason: "otp_locked", attemptsLeft: 0 };
  if (!codeMatches(row.id, code, row.codeHash)) {
    // Counted atomically, so parallel guesses cannot exceed the limit.
    const counted = await prisma.accountLoginCode.updateMany({
      where: { id: row.id, consumedAt: null, attempts: { lt: LOGIN_CODE.maxAttempts } },
      data: { attempts: { increment: 1 } },
    });
    const left = counted.count === 0 ? 0 : LOGIN_CODE.maxAttempts - row.attempts - 1;
    return left > 0 ? { ok: false, reason: "otp_invalid", attemptsLeft: left } : { ok: false, reason: "otp_locked", attemptsLeft: 0 };
  }
  const used = await prisma.accountLoginCode.updateMany({
    where: { id: row.id, consumedAt: null, attempts: { lt: LOGIN_CODE.maxAttempts } },
    data: { consumedAt: now() },
  });
  if (used.count === 0) return { ok: false, reason: "otp_not_found", attemptsLeft: 0 };
  return { ok: true, email: row.email };
}

/** Attempts left on the current code (for the page), or null when there is none. */
export async function currentCodeState(interactionId: string) {
  const prisma = await db();
  const row = await prisma.accountLoginCode.findFirst({
    where: { interactionId, consumedAt: null },
    orderBy: { createdAt: "desc" },
  });
  if (!row) return null;
  return { attemptsLeft: Math.max(0, LOGIN_CODE.maxAttempts - row.attempts), expired: row.expiresAt <= now() };
}
