import { z } from "zod";
import type { App, Session } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import { isLicenceServable } from "./predicates";
import { ageBands, readProfile, type Judged, type Profile } from "./profile";
import { documentProofName } from "./proofs";
import { projectPseudonym } from "./pseudonym";

/**
 * Reading a reusable identity back (spec 2.4, 4.3): proofs, never the legal
 * name, the date of birth or the document. An app reads only the accounts
 * that shared proofs with it through an approved session of its own, until
 * the person revokes it (docs/hosted-flow.md "Reusable identity").
 */
export const IdentityQuery = z.object({
  svc_id: z.string().trim().min(1).max(200).optional(),
  legacy_id: z.string().trim().min(1).max(200).optional(),
  vendor_data: z.string().min(1).max(1000).optional(),
});

/** Whether the account shares its proofs with the app now (shared through a session of its own, not revoked). */
export async function sharesWithApp(accountId: string, appId: string): Promise<boolean> {
  const prisma = await db();
  const share = await prisma.accountShare.findUnique({ where: { accountId_appId: { accountId, appId } }, select: { revokedAt: true } });
  return Boolean(share && !share.revokedAt);
}

/** Licences as spec 2.4 lists them; an expired or lapsed licence is never served. */
function presentLicences(licences: Judged<"licence">[], at: Date) {
  return licences
    .filter((l) => isLicenceServable(l, at))
    .map((l) => ({
      license_type: l.content.license_type,
      status: l.content.status,
      registry_status: l.content.registry_status,
      license_number: l.content.license_number,
      state: l.content.state,
      issuing_authority: l.content.issuing_authority,
      expires_on: l.content.expires_on,
    }));
}

/** Active: at least one proof not expired. */
function isActive(profile: Profile): boolean {
  return [profile.document, profile.face, ...profile.licences].some((p) => p && p.state !== "expired");
}

async function accountOfVendorData(appId: string, vendorData: string): Promise<string | null> {
  const prisma = await db();
  const session = await prisma.session.findFirst({
    where: { appId, vendorData, accountId: { not: null } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { accountId: true },
  });
  return session?.accountId ?? null;
}

const notFound = () => new ApiError("not_found", { message: "No active identity with that id has been shared with this project" });

/** GET /api/v2/identity. */
export async function readIdentity(app: App, query: z.infer<typeof IdentityQuery>) {
  if (query.svc_id && query.legacy_id && query.svc_id !== query.legacy_id) {
    throw new ApiError("invalid_request", {
      message: "svc_id and legacy_id name the same id; give one, or the same value",
      data: { errors: { legacy_id: ["Differs from svc_id"] } },
    });
  }
  const svcId = query.svc_id ?? query.legacy_id;
  if (!svcId && !query.vendor_data) throw new ApiError("missing_parameter");
  const byVendorData = query.vendor_data ? await accountOfVendorData(app.id, query.vendor_data) : null;
  if (query.vendor_data && !byVendorData) throw notFound();
  if (svcId && byVendorData && svcId !== byVendorData) throw notFound();
  const accountId = (svcId ?? byVendorData)!;
  if (!(await sharesWithApp(accountId, app.id))) throw notFound();
  const at = now();
  const profile = await readProfile(accountId, at);
  if (!isActive(profile)) throw notFound();
  return {
    identity: {
      svc_id: accountId,
      pseudonym: await projectPseudonym(app.id, accountId),
      age_bands: ageBands(profile.document, at),
      licenses: presentLicences(profile.licences, at),
      verified_at: profile.verifiedAt?.toISOString() ?? null,
      stale: profile.stale,
    },
  };
}

/**
 * The decision's `identity` (spec 2.2): null only for a session without an
 * account. For a bound session, the profile is released (`shared: true`:
 * the name as verified, licences with their state) once the session is
 * APPROVED (the person shared their proofs with this app through it) and
 * while that share stands; otherwise (open, in review, declined, expired,
 * or the person revoked the app) only the account's id, nothing of its
 * profile (`shared: false`).
 */
export async function decisionIdentity(session: Pick<Session, "accountId" | "appId" | "status">) {
  if (!session.accountId) return null;
  const shared = session.status === "APPROVED" && (await sharesWithApp(session.accountId, session.appId));
  if (!shared) return { svc_id: session.accountId, shared: false, full_name: null, licenses: [], verified_at: null, stale: false };
  const at = now();
  const profile = await readProfile(session.accountId, at);
  return {
    svc_id: session.accountId,
    shared: true,
    full_name: profile.document && profile.document.state !== "expired" ? documentProofName(profile.document.content) : null,
    licenses: profile.licences
      .filter((l) => isLicenceServable(l, at))
      .map((l) => ({ license_type: l.content.license_type, license_state: l.content.state, status: l.content.status, expire_date: l.content.expires_on })),
    verified_at: profile.verifiedAt?.toISOString() ?? null,
    stale: profile.stale,
  };
}
