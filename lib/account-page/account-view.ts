import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { listSharedApps } from "@/lib/account-page/account-lifecycle";
import { listSignedInApps } from "@/lib/oidc/grants/signed-in-apps";
import { identityPredicates } from "@/lib/identity/predicates";
import { readProfile, type ProofState } from "@/lib/identity/profile";
import { accountCsrf, signedInAccount } from "./account-cookies";

/**
 * What the account page shows the signed-in person: what was proven and
 * when (never the document's fields: no name, date of birth or number), the
 * apps that received their proofs, the apps they are signed in to (and what
 * each may read), and the CSRF token of its forms.
 */
export type AccountView =
  | { signedIn: false }
  | {
      signedIn: true;
      email: string;
      csrf: string;
      document: { documentType: string; issuingCountry: string | null; verifiedAt: Date; validUntil: Date | null; state: ProofState } | null;
      face: { verifiedAt: Date; state: ProofState } | null;
      licences: Array<{ type: string; state: ProofState; expiresOn: string | null; verifiedAt: Date }>;
      ageOver18: boolean | undefined;
      apps: Awaited<ReturnType<typeof listSharedApps>>;
      signIns: Awaited<ReturnType<typeof listSignedInApps>>;
    };

export async function accountView(cookie: string | undefined): Promise<AccountView> {
  const accountId = signedInAccount(cookie);
  if (!accountId || !cookie) return { signedIn: false };
  const prisma = await db();
  const account = await prisma.account.findUnique({ where: { id: accountId }, select: { email: true } });
  if (!account) return { signedIn: false };
  const at = now();
  const [profile, apps, signIns] = await Promise.all([readProfile(accountId, at), listSharedApps(accountId), listSignedInApps(accountId)]);
  const d = profile.document;
  return {
    signedIn: true,
    email: account.email,
    csrf: accountCsrf(cookie),
    document: d ? { documentType: d.content.document_type, issuingCountry: d.content.issuing_country, verifiedAt: d.verifiedAt, validUntil: d.validUntil, state: d.state } : null,
    face: profile.face ? { verifiedAt: profile.face.verifiedAt, state: profile.face.state } : null,
    licences: profile.licences.map((l) => ({ type: l.content.license_type, state: l.state, expiresOn: l.content.expires_on, verifiedAt: l.verifiedAt })),
    ageOver18: identityPredicates(profile, at).age_over_18,
    apps,
    signIns,
  };
}
