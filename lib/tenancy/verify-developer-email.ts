import { now } from "@/lib/clock";
import { db, type Tx } from "@/lib/db/client";
import { grantWelcomeCreditOncePerMailbox, type WelcomeCreditWithheld } from "@/lib/billing/welcome-credit";
import { ApiError } from "@/lib/http/api-error";
import { EmailSchema, normalisedMailbox } from "./schemas";
import { parseOrThrow } from "@/lib/http/validation";

export type EmailVerified = {
  developerId: string;
  email: string;
  welcomeCreditGranted: boolean;
  /** Why no credit was granted (none when it was, or the developer owns no organization). */
  welcomeCreditWithheld?: WelcomeCreditWithheld;
};

/**
 * THE rule for an email found to be the developer's: the account is marked
 * verified and the organization it signed up with (its first as owner) gets
 * the welcome credit, in the caller's transaction, unless its mailbox
 * already got one (grantWelcomeCreditOncePerMailbox: `x+1@gmail.com` and
 * `x.+2@googlemail.com` are one mailbox). Repeating it changes nothing: the
 * verification time stays the first, and no second credit is granted
 * (`welcomeCreditGranted: false`). The portal's mailed link and the
 * operator's `developer:verify-email` call it.
 */
export async function markEmailVerified(tx: Tx, developerId: string): Promise<EmailVerified> {
  const developer = await tx.developer.findUniqueOrThrow({ where: { id: developerId } });
  if (!developer.emailVerifiedAt) await tx.developer.update({ where: { id: developerId }, data: { emailVerifiedAt: now() } });
  const own = await tx.organizationDeveloper.findFirst({ where: { developerId, role: "owner" }, orderBy: { createdAt: "asc" } });
  const verified = { developerId, email: developer.email, welcomeCreditGranted: false };
  if (!own) return verified;
  const credit = await grantWelcomeCreditOncePerMailbox(tx, own.organizationId, normalisedMailbox(developer.email));
  return credit.granted ? { ...verified, welcomeCreditGranted: true } : { ...verified, welcomeCreditWithheld: credit.withheld };
}

/** The operator's `developer:verify-email`: for a server without outgoing mail. Unknown email: 404 `not_found`. */
export async function verifyDeveloperEmailByAddress(email: string): Promise<EmailVerified> {
  const address = parseOrThrow(EmailSchema, email, "email");
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const developer = await tx.developer.findUnique({ where: { email: address } });
    if (!developer) throw new ApiError("not_found", { message: `No developer with the email ${address}` });
    return markEmailVerified(tx, developer.id);
  });
}
