import type { Tx } from "@/lib/db/client";
import { applyLedgerEntry, type LedgerResult } from "./ledger";
import { WELCOME_CREDIT_CENTS } from "./money";

/**
 * The one-time welcome credit of a new organization (spec 1.6: 100 USD), a
 * ledger row written in the caller's transaction. Its fixed reference makes
 * it impossible to grant twice. It is granted with a verified email only:
 * at once for the trusted creators (the CLI, the demo account, through
 * createDeveloper), and for a portal sign-up when its mailed link is
 * followed (lib/tenancy/verify-developer-email.ts markEmailVerified).
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
