import { z } from "zod";
import { db } from "@/lib/db/client";
import { decodeCursor, encodeCursor } from "@/lib/http/keyset-cursor";
import { ApiError } from "@/lib/http/api-error";
import { AddMembersBody } from "@/lib/org/add-members";
import type { RosterCaller } from "@/lib/org/caller";
import { presentMember } from "@/lib/org/list-members";
import type { PortalDeveloper } from "./access";

/**
 * The portal's roster pages (`/dashboard/roster`): the list query the
 * organization API has no equivalent of (every role, newest first, a status
 * filter, a page at a time), and how the portal acts on the roster through
 * the organization API's own domain functions (lib/org/*): as a
 * `RosterCaller` named after the developer (rate limits count per developer).
 */
export const ROSTER_PAGE_SIZE = 100;
export const ROSTER_STATUSES = ["invited", "link_sent", "active", "deactivated"] as const;
export type RosterStatus = (typeof ROSTER_STATUSES)[number];

export const RosterQuery = z.object({
  cursor: z.string().max(500).optional(),
  status: z.enum(ROSTER_STATUSES, { message: `status must be one of ${ROSTER_STATUSES.join(", ")}` }).optional(),
});
export type RosterFilter = z.infer<typeof RosterQuery>;

/** The portal's add: only the members (1 to 500, the API's item rules); `notify` and `invite` are the API's defaults. */
export const PortalAddMembersBody = AddMembersBody.pick({ members: true });

export type RosterMember = ReturnType<typeof presentMember>;
export type RosterPage = { members: RosterMember[]; next_cursor: string | null };

/** The developer's organization as a caller of lib/org (the roster functions, their rate limits). */
export function portalRosterCaller(developer: Pick<PortalDeveloper, "developerId" | "organizationId">): RosterCaller {
  return { id: `portal:${developer.developerId}`, organizationId: developer.organizationId };
}

/** The member row id of a cursor (members have integer ids), or 400 naming `cursor`. */
function cursorPosition(cursor: string) {
  const after = decodeCursor(cursor);
  const id = Number(after.id);
  if (!Number.isSafeInteger(id)) throw new ApiError("invalid_request", { message: "Invalid cursor", data: { errors: { cursor: ["Invalid cursor"] } } });
  return { createdAt: new Date(after.t), id };
}

/**
 * One page of the organization's members, every role, newest first, with
 * the next page's cursor (null at the end): the rows of the index
 * `members (organization_id, status)` (a status) or of the organization's
 * prefix of `members (organization_id, role, created_at)` (all), after the
 * keyset `(created_at, id)`, stopped at the page size (no offset, no count).
 */
export async function listRosterPage(organizationId: string, filter: RosterFilter = {}, limit = ROSTER_PAGE_SIZE): Promise<RosterPage> {
  const size = Math.min(Math.max(limit, 1), ROSTER_PAGE_SIZE);
  const after = filter.cursor ? cursorPosition(filter.cursor) : null;
  const prisma = await db();
  const rows = await prisma.member.findMany({
    where: {
      organizationId,
      ...(filter.status ? { status: filter.status } : {}),
      ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: size + 1,
  });
  const page = rows.slice(0, size);
  const last = page[page.length - 1];
  return { members: page.map(presentMember), next_cursor: rows.length > size && last ? encodeCursor(last.createdAt, String(last.id)) : null };
}
