import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { revokeAccountGrants } from "@/lib/oidc/grants/revoke";

/**
 * What a person controls on their account page: the apps that received
 * their proofs, revoking one, and deleting the account (README "Reusable
 * identity").
 */

/** The apps the account shared proofs with, newest first, revoked ones included (marked). */
export async function listSharedApps(accountId: string) {
  const prisma = await db();
  const shares = await prisma.accountShare.findMany({
    where: { accountId },
    orderBy: { lastSharedAt: "desc" },
    include: { app: { select: { name: true, logo: true } } },
  });
  return shares.map((s) => ({
    app_id: s.appId,
    name: s.app.name,
    logo: s.app.logo,
    first_shared_at: s.firstSharedAt.toISOString(),
    last_shared_at: s.lastSharedAt.toISOString(),
    revoked_at: s.revokedAt?.toISOString() ?? null,
  }));
}

/**
 * The person revokes an app: it no longer reads their identity (GET
 * /api/v2/identity answers 404, decisions carry no `identity`) and every
 * OIDC grant of theirs for it is revoked (refresh and access tokens stop
 * working at once). False when the app never received their proofs.
 */
export async function revokeAppAccess(accountId: string, appId: string): Promise<boolean> {
  const prisma = await db();
  const { count } = await prisma.accountShare.updateMany({ where: { accountId, appId, revokedAt: null }, data: { revokedAt: now() } });
  const known = count > 0 || (await prisma.accountShare.count({ where: { accountId, appId } })) > 0;
  if (known) await revokeAccountGrants(accountId, appId);
  return known;
}

/**
 * Deletes the account: its proofs, enrolled face, shares, OIDC grants and
 * sign-in codes (cascades), and the face-uniqueness enrollments its
 * sessions made (a face left with no active enrollment is deleted, template
 * and code). Its sessions stay with their verdicts, without the person
 * (`svc_id` null): the companies' audit trail of what was decided.
 */
export async function deleteAccount(accountId: string): Promise<boolean> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const account = await tx.account.findUnique({ where: { id: accountId }, select: { id: true } });
    if (!account) return false;
    const sessions = await tx.session.findMany({ where: { accountId }, select: { id: true } });
    const sessionIds = sessions.map((s) => s.id);
    const enrolled = await tx.faceEnrollment.findMany({ where: { sessionId: { in: sessionIds } }, select: { faceId: true } });
    await tx.faceEnrollment.updateMany({ where: { sessionId: { in: sessionIds }, status: "active" }, data: { status: "unlinked", unlinkedAt: now() } });
    await tx.faceIdentity.deleteMany({
      where: {
        OR: [{ accountId }, { id: { in: enrolled.map((e) => e.faceId) }, enrollments: { none: { status: "active" } } }],
      },
    });
    await tx.account.delete({ where: { id: accountId } });
    return true;
  });
}
