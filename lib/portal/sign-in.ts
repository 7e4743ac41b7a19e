import { ABUSE_LIMITS } from "@/lib/http/abuse-limits";
import { env } from "@/lib/config/env";
import { hashPassword, verifyPassword } from "@/lib/crypto/secrets";
import { db } from "@/lib/db/client";
import { consumeRateLimit } from "@/lib/http/rate-limit";
import { EmailSchema } from "@/lib/tenancy/schemas";

/** Sign-in attempts are counted over this window, per account and per client IP. */
export const SIGN_IN_WINDOW_SECONDS = ABUSE_LIMITS.portalSignIn.windowSeconds;

export type SignInOutcome =
  | { kind: "signed_in"; developer: { id: string; email: string; name: string | null } }
  /** Wrong email or wrong password: one answer for both (no account enumeration). */
  | { kind: "invalid_credentials" }
  /** Too many attempts for this account or from this address. */
  | { kind: "rate_limited" };

let dummyHash: Promise<string> | undefined;

/**
 * Checks a developer's email and password for the portal's sign-in
 * (next-auth's Credentials provider). Every attempt counts against two
 * budgets, the client IP's and the account's (the email as typed,
 * normalised, whether or not such a developer exists, so the limit reveals
 * nothing either): over either, the attempt is refused without checking the
 * password. An unknown email still costs one scrypt, so timing does not tell
 * accounts apart.
 */
export async function checkDeveloperSignIn(input: { email: unknown; password: unknown }, clientIp: string): Promise<SignInOutcome> {
  const config = env();
  const email = EmailSchema.safeParse(input.email);
  const password = typeof input.password === "string" ? input.password : "";
  try {
    await consumeRateLimit("portal-sign-in-ip", clientIp, config.PORTAL_SIGN_IN_ATTEMPTS_PER_IP, SIGN_IN_WINDOW_SECONDS);
    const accountKey = email.success ? email.data : String(input.email ?? "").trim().toLowerCase();
    await consumeRateLimit("portal-sign-in-account", accountKey, config.PORTAL_SIGN_IN_ATTEMPTS_PER_ACCOUNT, SIGN_IN_WINDOW_SECONDS);
  } catch {
    return { kind: "rate_limited" };
  }
  if (!email.success || password === "" || password.length > 200) return { kind: "invalid_credentials" };
  const prisma = await db();
  const developer = await prisma.developer.findUnique({ where: { email: email.data } });
  if (!developer) {
    await verifyPassword(password, await (dummyHash ??= hashPassword("not-a-real-password")));
    return { kind: "invalid_credentials" };
  }
  if (!(await verifyPassword(password, developer.passwordHash))) return { kind: "invalid_credentials" };
  return { kind: "signed_in", developer: { id: developer.id, email: developer.email, name: developer.name } };
}
