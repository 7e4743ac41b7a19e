import type { Member } from "@/generated/prisma/client";
import { db } from "@/lib/db/client";
import { UUID_PATTERN } from "@/lib/http/validation";

/**
 * A member of an organization by the reference a path or body gives (spec
 * 2.7): its `member_id` (`vmem_` + 24 hex), its email (case-insensitive) or
 * its `svc_id`. Only this organization's members are ever found.
 */
export const MEMBER_ID_PATTERN = /^vmem_[0-9a-f]{24}$/;

export async function findMember(organizationId: string, ref: string): Promise<Member | null> {
  const prisma = await db();
  const value = ref.trim();
  if (MEMBER_ID_PATTERN.test(value)) return prisma.member.findFirst({ where: { organizationId, memberId: value } });
  if (value.includes("@")) return prisma.member.findFirst({ where: { organizationId, email: { equals: value, mode: "insensitive" } } });
  if (UUID_PATTERN.test(value)) return prisma.member.findFirst({ where: { organizationId, svcId: value }, orderBy: { id: "asc" } });
  return null;
}
