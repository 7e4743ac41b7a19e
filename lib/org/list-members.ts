import type { Member } from "@/generated/prisma/client";
import type { RosterCaller } from "./caller";
import { db } from "@/lib/db/client";

/** Spec 2.7 member object. */
export function presentMember(m: Member) {
  return {
    id: m.id,
    member_id: m.memberId,
    first_name: m.firstName,
    last_name: m.lastName,
    email: m.email,
    role: m.role,
    status: m.status,
    svc_id: m.svcId,
    active: m.status === "active",
    created_at: m.createdAt.toISOString(),
  };
}

/** GET /api/sdk/members: the roster of the app's organization, role `member` only. */
export async function listMembers(app: RosterCaller) {
  const prisma = await db();
  const organization = await prisma.organization.findUniqueOrThrow({ where: { id: app.organizationId } });
  const members = await prisma.member.findMany({
    where: { organizationId: organization.id, role: "member" },
    orderBy: { createdAt: "asc" },
  });
  return { members: members.map(presentMember), organization: { id: organization.id, name: organization.name } };
}
