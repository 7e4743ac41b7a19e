import type { Member } from "@/generated/prisma/client";
import { db } from "@/lib/db/client";
import { prepareQuery, runPrepared, typedSql } from "@/lib/db/typed-sql";
import { vocabularyValue } from "@/lib/contract-vocabulary";
import type { RosterCaller } from "./caller";
import { MEMBER_ROLES, MEMBER_STATUSES } from "./member-vocabulary";

/** Spec 2.7 member object. */
export function presentMember(m: Pick<Member, "id" | "memberId" | "firstName" | "lastName" | "email" | "role" | "status" | "svcId" | "createdAt">) {
  return {
    id: m.id,
    member_id: m.memberId,
    first_name: m.firstName,
    last_name: m.lastName,
    email: m.email,
    role: vocabularyValue(MEMBER_ROLES, m.role, "member role"),
    status: vocabularyValue(MEMBER_STATUSES, m.status, "member status"),
    svc_id: m.svcId,
    active: m.status === "active",
    created_at: m.createdAt.toISOString(),
  };
}

/** The roster's rows: one range of the index (organization_id, role, created_at). */
const rosterRows = prepareQuery("org_roster_rows", (v: { organizationId: string }) =>
  typedSql
    .selectFrom("members")
    .select(["id", "member_id", "first_name", "last_name", "email", "role", "status", "svc_id", "created_at"])
    .where("organization_id", "=", v.organizationId)
    .where("role", "=", "member")
    .orderBy("created_at")
    .orderBy("id"),
);

/**
 * GET /api/sdk/members: the roster of the app's organization, role `member`
 * only, oldest first. A prepared typed statement on the index
 * (organization_id, role, created_at): a roster of 10,000 is one index
 * range, without the ORM's per-row cost (`npm run bench:org`).
 */
export async function listMembers(app: RosterCaller) {
  const prisma = await db();
  const [organization, rows] = await Promise.all([
    prisma.organization.findUniqueOrThrow({ where: { id: app.organizationId }, select: { id: true, name: true } }),
    runPrepared(rosterRows, { organizationId: app.organizationId }),
  ]);
  const members = rows.map((r) =>
    presentMember({ id: r.id, memberId: r.member_id, firstName: r.first_name, lastName: r.last_name, email: r.email, role: r.role, status: r.status, svcId: r.svc_id, createdAt: r.created_at }),
  );
  return { members, organization };
}
