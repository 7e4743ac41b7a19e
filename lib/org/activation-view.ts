import { db } from "@/lib/db/client";
import { accountCsrf, signedInAccount } from "@/lib/account-page/account-cookies";
import { activationScansLeft, findActivation } from "./face-activation";

/**
 * What the activation page shows: null for a dead link (the page answers
 * 404 `invalid_activation`); else the organization, the invited address
 * (masked until the person signs in with it), and the step they are at.
 */
export type ActivationView =
  | { step: "sign_in"; organization: string; invitedEmail: string; signInHref: string }
  | { step: "wrong_account"; organization: string; invitedEmail: string; signedInAs: string; csrf: string; returnTo: string }
  | { step: "face"; organization: string; email: string; csrf: string; endpoint: string; scansLeft: number };

export function maskEmail(email: string): string {
  const [local = "", domain = ""] = email.split("@");
  return `${local.slice(0, 1)}${"•".repeat(Math.max(1, Math.min(local.length - 1, 6)))}@${domain}`;
}

export async function activationView(token: string, cookie: string | undefined): Promise<ActivationView | null> {
  const activation = await findActivation(token);
  if (!activation) return null;
  const path = `/activate/${token}`;
  const organization = activation.organization;
  const accountId = signedInAccount(cookie);
  const prisma = await db();
  const account = accountId ? await prisma.account.findUnique({ where: { id: accountId }, select: { email: true } }) : null;
  if (!account || !cookie) {
    return { step: "sign_in", organization, invitedEmail: maskEmail(activation.member.email), signInHref: `/account/sign-in?return_to=${encodeURIComponent(path)}` };
  }
  if (account.email.toLowerCase() !== activation.member.email.toLowerCase()) {
    return { step: "wrong_account", organization, invitedEmail: maskEmail(activation.member.email), signedInAs: account.email, csrf: accountCsrf(cookie), returnTo: path };
  }
  return { step: "face", organization, email: account.email, csrf: accountCsrf(cookie), endpoint: `${path}/face`, scansLeft: await activationScansLeft(activation) };
}
