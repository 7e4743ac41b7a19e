import { createHmac } from "node:crypto";
import { derivedKey, derivedKeys } from "@/lib/crypto/encryption-key";
import type { Tx } from "@/lib/db/client";
import { applyLedgerEntry, type LedgerResult } from "./ledger";
import { WELCOME_CREDIT_CENTS } from "./money";

/**
 * The one-time welcome credit of a new organization (spec 1.6: 100 USD), a
 * ledger row written in the caller's transaction. Its fixed reference makes
 * it impossible to grant twice. It is granted with a verified email only:
 * at once for the trusted creators (the CLI, the demo account, through
 * createDeveloper), and for a portal sign-up when its mailed link is
 * followed (grantWelcomeCreditOncePerMailbox: one per mailbox).
 */
export const WELCOME_CREDIT_REFERENCE = "welcome_credit";

export function grantWelcomeCredit(tx: Tx, organizationId: string): Promise<LedgerResult> {
  return applyLedgerEntry(tx, {
    organizationId,
    amountCents: WELCOME_CREDIT_CENTS,
    kind: "welcome_credit",
    reference: WELCOME_CREDIT_REFERENCE,
    description: "One-time welcome credit",
  });
}

const MAILBOX_PURPOSE = "svc welcome credit mailbox";

/** The stored form of a normalised mailbox: an HMAC under a key derived from ENCRYPTION_KEY, so the address is not kept in clear. */
function mailboxHash(mailbox: string, key = derivedKey(MAILBOX_PURPOSE)): string {
  return createHmac("sha256", key).update(mailbox).digest("hex");
}

/**
 * Why an organization got no welcome credit: `already_granted` (it has had
 * it), `mailbox_already_credited` (another organization got it for the same
 * mailbox).
 */
export type WelcomeCreditWithheld = "already_granted" | "mailbox_already_credited";
export type WelcomeCreditOutcome = { granted: true } | { granted: false; withheld: WelcomeCreditWithheld };

/**
 * THE rule for a self-service account's welcome credit: one per mailbox.
 * `mailbox` is the normalised mailbox of the verified email
 * (lib/tenancy/schemas.ts normalisedMailbox); its keyed hash goes into
 * welcome_credit_grants (unique) in the caller's transaction, with the
 * credit. A hash made under an ENCRYPTION_KEY_PREVIOUS key still counts.
 */
export async function grantWelcomeCreditOncePerMailbox(tx: Tx, organizationId: string, mailbox: string): Promise<WelcomeCreditOutcome> {
  const hashes = derivedKeys(MAILBOX_PURPOSE).map((key) => mailboxHash(mailbox, key));
  const earlier = await tx.welcomeCreditGrant.findFirst({ where: { mailboxHash: { in: hashes } } });
  if (earlier) return { granted: false, withheld: earlier.organizationId === organizationId ? "already_granted" : "mailbox_already_credited" };
  const recorded = await tx.welcomeCreditGrant.createMany({ data: [{ mailboxHash: hashes[0]!, organizationId }], skipDuplicates: true });
  // A concurrent verification of the same mailbox recorded it first.
  if (recorded.count === 0) return { granted: false, withheld: "mailbox_already_credited" };
  const credit = await grantWelcomeCredit(tx, organizationId);
  return credit.applied ? { granted: true } : { granted: false, withheld: "already_granted" };
}
