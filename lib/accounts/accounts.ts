import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";

/**
 * End-user accounts. An account is created the first time someone proves
 * an email address with a one-time code; each later sign-in updates
 * `lastLoginAt`. Emails are lower-cased.
 */
export async function signInAccountByEmail(email: string) {
  const prisma = await db();
  const at = now();
  const normalized = email.trim().toLowerCase();
  return prisma.account.upsert({
    where: { email: normalized },
    create: { email: normalized, emailVerifiedAt: at, lastLoginAt: at },
    update: { lastLoginAt: at, emailVerifiedAt: at },
  });
}

export async function findAccount(id: string) {
  const prisma = await db();
  return prisma.account.findUnique({ where: { id } });
}
