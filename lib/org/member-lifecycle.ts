import { randomBytes } from "node:crypto";
import type { Member } from "@/generated/prisma/client";
import type { RosterCaller } from "./caller";
import { z } from "zod";
import { now } from "@/lib/clock";
import { db, type Tx } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import { parseOrThrow } from "@/lib/http/validation";
import { revokeAccountGrantsForApps } from "@/lib/oidc/grants/revoke";
import { EmailSchema } from "@/lib/tenancy/schemas";
import { assertSeatsPayable } from "./billing/seats";
import { ensureSubscription } from "./billing/subscription";
import { findMember } from "./find-member";
import { presentMember } from "./list-members";

/**
 * The member status rules of spec 3.2 that need no invitation (docs/organization-api.md): resolve, deactivate, reactivate, remove, bind.
 * Each takes the calling app (client credentials) and acts only inside its
 * organization; `{member_id}` also accepts the email or the `svc_id`.
 */
const notFound = () => new ApiError("not_found", { message: "No member with that id, email or svc_id in this organization" });

export const newMemberId = () => `vmem_${randomBytes(12).toString("hex")}`;

async function memberOrThrow(app: RosterCaller, ref: string): Promise<Member> {
  const member = await findMember(app.organizationId, ref);
  if (!member) throw notFound();
  return member;
}

/** The organization's apps (a deactivated member's sign-ins to any of them end). */
async function organizationAppIds(organizationId: string): Promise<string[]> {
  const prisma = await db();
  return (await prisma.app.findMany({ where: { organizationId }, select: { id: true } })).map((a) => a.id);
}

export const ResolveBody = z.object({ svc_id: z.string().trim().min(1).max(200).optional(), email: z.string().trim().min(1).max(254).optional() });

/** POST /api/sdk/members/resolve: any role; `{ found: false, member: null }` outside the organization. */
export async function resolveMember(app: RosterCaller, body: z.infer<typeof ResolveBody>) {
  const ref = body.svc_id ?? body.email;
  if (!ref) throw new ApiError("missing_identifier", { message: "Give svc_id or email" });
  const member = await findMember(app.organizationId, ref);
  return member ? { found: true, member: presentMember(member) } : { found: false, member: null };
}

/**
 * Deactivated (from any status): no longer a seat, every OIDC sign-in of
 * its account to the organization's apps revoked at once, the row and the
 * account kept. Idempotent.
 */
export async function deactivateMember(app: RosterCaller, ref: string) {
  const member = await memberOrThrow(app, ref);
  const prisma = await db();
  const updated =
    member.status === "deactivated"
      ? member
      : await prisma.member.update({ where: { id: member.id }, data: { status: "deactivated", deactivatedAt: now(), activationTokenHash: null, activationExpiresAt: null } });
  if (member.svcId) await revokeAccountGrantsForApps(member.svcId, await organizationAppIds(app.organizationId));
  return { member: presentMember(updated) };
}

/**
 * What a deactivated member becomes when brought back (spec 3.2): `active`
 * while its account exists, else `invited` and unbound (it must activate by
 * face again).
 */
export async function reactivation(tx: Tx, member: Member, at: Date): Promise<Pick<Member, "status" | "svcId" | "deactivatedAt"> & { activatedAt?: Date }> {
  const account = member.svcId ? await tx.account.findUnique({ where: { id: member.svcId }, select: { id: true } }) : null;
  return account ? { status: "active", svcId: member.svcId, deactivatedAt: null, activatedAt: at } : { status: "invited", svcId: null, deactivatedAt: null };
}

/** PATCH reactivate: a deactivated member back (see `reactivation`); any other status is left as it is (idempotent). */
export async function reactivateMember(app: RosterCaller, ref: string) {
  const member = await memberOrThrow(app, ref);
  if (member.status !== "deactivated") return { member: presentMember(member) };
  const at = now();
  const prisma = await db();
  const updated = await prisma.$transaction(async (tx) => {
    const back = await reactivation(tx, member, at);
    // Only a seat (active) needs a paid-up organization; `invited` is free.
    if (back.status === "active") await assertSeatsPayable(app.organizationId, at, tx);
    return tx.member.update({ where: { id: member.id }, data: back });
  });
  return { member: presentMember(updated) };
}

/** DELETE /api/sdk/members/{member_id} query: `permanent` (true or 1) removes the row instead of deactivating it. */
export const RemoveQuery = z.object({ permanent: z.enum(["true", "false", "1", "0"]).optional() });

/** DELETE: deactivate by default; `permanent` removes the row; an absent member is `already_removed` (idempotent). The account is never deleted. */
export async function removeMember(app: RosterCaller, ref: string, permanent: boolean) {
  const member = await findMember(app.organizationId, ref);
  if (!member) return { member: null, already_removed: true as const };
  if (!permanent) return deactivateMember(app, member.memberId);
  const prisma = await db();
  if (member.svcId) await revokeAccountGrantsForApps(member.svcId, await organizationAppIds(app.organizationId));
  await prisma.member.deleteMany({ where: { id: member.id } });
  return { member: null, removed: true as const };
}

/** The bind body: camelCase as the spec shows it; snake_case accepted too (the spec leaves the casing open). */
export const BindBody = z
  .object({
    svcId: z.string().trim().optional(),
    svc_id: z.string().trim().optional(),
    email: z.string(),
    firstName: z.string().trim().max(100).optional(),
    first_name: z.string().trim().max(100).optional(),
    lastName: z.string().trim().max(100).optional(),
    last_name: z.string().trim().max(100).optional(),
  })
  .strict();

const BindInput = z.object({
  svcId: z.string().uuid({ message: "An svc_id (the sub of the person's ID token)" }),
  email: EmailSchema,
  firstName: z.string().max(100),
  lastName: z.string().max(100),
});

/**
 * POST /api/sdk/members/bind: an idempotent upsert (by email) marking the
 * member active and bound to the account. The account must have signed in
 * to one of this organization's apps (a live OIDC grant) or shared proofs
 * with one: an organization cannot bind someone who never dealt with it.
 */
export async function bindMember(app: RosterCaller, body: z.infer<typeof BindBody>) {
  const input = parseOrThrow(
    BindInput,
    {
      svcId: body.svcId ?? body.svc_id ?? "",
      email: body.email,
      firstName: body.firstName ?? body.first_name ?? "",
      lastName: body.lastName ?? body.last_name ?? "",
    },
    "body",
  );
  const at = now();
  await assertSeatsPayable(app.organizationId, at);
  const prisma = await db();
  const appIds = await organizationAppIds(app.organizationId);
  const [grants, shares] = await Promise.all([
    prisma.oidcGrant.count({ where: { accountId: input.svcId, appId: { in: appIds } } }),
    prisma.accountShare.count({ where: { accountId: input.svcId, appId: { in: appIds }, revokedAt: null } }),
  ]);
  if (grants + shares === 0) {
    throw new ApiError("not_found", { message: "No account with that svc_id has signed in to, or shared proofs with, this organization's apps" });
  }
  const boundElsewhere = await prisma.member.findFirst({
    where: { organizationId: app.organizationId, svcId: input.svcId, NOT: { email: { equals: input.email, mode: "insensitive" } } },
  });
  if (boundElsewhere) {
    throw new ApiError("invalid_request", {
      message: `That svc_id is already bound to member ${boundElsewhere.memberId} (${boundElsewhere.email})`,
      data: { errors: { svcId: ["Already bound to another member of this organization"] } },
    });
  }
  const existing = await findMember(app.organizationId, input.email);
  const names = { ...(input.firstName ? { firstName: input.firstName } : {}), ...(input.lastName ? { lastName: input.lastName } : {}) };
  const bound = { svcId: input.svcId, status: "active", activationTokenHash: null, activationExpiresAt: null, deactivatedAt: null, ...names };
  const member = await prisma.$transaction(async (tx) => {
    await ensureSubscription(tx, app.organizationId, at);
    if (existing) return tx.member.update({ where: { id: existing.id }, data: { ...bound, ...(existing.status === "active" ? {} : { activatedAt: at }) } });
    return tx.member.create({ data: { memberId: newMemberId(), organizationId: app.organizationId, email: input.email, role: "member", activatedAt: at, ...bound } });
  });
  return { member: presentMember(member) };
}
