import { ABUSE_LIMITS } from "@/lib/http/abuse-limits";
import { env } from "@/lib/config/env";
import { hashPassword, verifyPassword } from "@/lib/crypto/secrets";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import { startBudgetedAttempt, type BudgetedAttempt, type FailureBudget } from "@/lib/http/rate-limit";
import { EmailSchema } from "@/lib/tenancy/schemas";

/** Failed sign-ins are counted over this window, per (account, client IP) and per client IP. */
export const SIGN_IN_WINDOW_SECONDS = ABUSE_LIMITS.portalSignIn.windowSeconds;

export type SignInOutcome =
  | { kind: "signed_in"; developer: { id: string; email: string; name: string | null } }
  /** Wrong email or wrong password: one answer for both (no account enumeration). */
  | { kind: "invalid_credentials" }
  /** Too many failed attempts from this address (for this account, or at all). */
  | { kind: "rate_limited" };

let dummyHash: Promise<string> | undefined;

/** The portal sign-in's failed-attempt budget (counts: PORTAL_SIGN_IN_ATTEMPTS_PER_ACCOUNT and _PER_IP). */
function signInBudget(): FailureBudget {
  const config = env();
  return {
    ipBucket: "portal-sign-in-ip",
    accountBucket: "portal-sign-in-account",
    failuresPerAccountPerIp: config.PORTAL_SIGN_IN_ATTEMPTS_PER_ACCOUNT,
    failuresPerIp: config.PORTAL_SIGN_IN_ATTEMPTS_PER_IP,
    windowSeconds: SIGN_IN_WINDOW_SECONDS,
    // Passwords can be guessed: a burst of concurrent attempts gets no more tries than the budget.
    reserveBeforeCheck: true,
  };
}

/** The budget's attempt, or null when this IP is over it. */
async function startSignInAttempt(accountKey: string, clientIp: string): Promise<BudgetedAttempt | null> {
  try {
    return await startBudgetedAttempt(signInBudget(), clientIp, accountKey);
  } catch (err) {
    if (err instanceof ApiError && err.code === "rate_limited") return null;
    throw err;
  }
}

/**
 * Checks a developer's email and password for the portal's sign-in
 * (next-auth's Credentials provider). Only FAILED attempts count, against
 * the (account, client IP) budget and the client IP's (the account is the
 * email as typed, normalised, whether or not such a developer exists, so the
 * limit reveals nothing); a success clears its (account, IP) count. Over
 * either budget the attempt is refused without checking the password, for
 * that IP only: the right password still signs in from elsewhere. An unknown
 * email still costs one scrypt, so timing does not tell accounts apart.
 */
export async function checkDeveloperSignIn(input: { email: unknown; password: unknown }, clientIp: string): Promise<SignInOutcome> {
  const email = EmailSchema.safeParse(input.email);
  const password = typeof input.password === "string" ? input.password : "";
  const accountKey = email.success ? email.data : String(input.email ?? "").trim().toLowerCase().slice(0, 320);
  const attempt = await startSignInAttempt(accountKey, clientIp);
  if (!attempt) return { kind: "rate_limited" };
  const developer = email.success ? await developerWithPassword(email.data, password) : null;
  if (!developer) {
    await attempt.failed();
    return { kind: "invalid_credentials" };
  }
  await attempt.succeeded();
  return { kind: "signed_in", developer: { id: developer.id, email: developer.email, name: developer.name } };
}

/** The developer with this email if the password is theirs; one scrypt whether or not the email is known. */
async function developerWithPassword(email: string, password: string) {
  if (password === "" || password.length > 200) return null;
  const prisma = await db();
  const developer = await prisma.developer.findUnique({ where: { email } });
  if (!developer) {
    await verifyPassword(password, await (dummyHash ??= hashPassword("not-a-real-password")));
    return null;
  }
  return (await verifyPassword(password, developer.passwordHash)) ? developer : null;
}
