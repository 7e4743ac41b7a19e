import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { addMembers } from "@/lib/org/add-members";
import { listRosterPage, PortalAddMembersBody, portalRosterCaller, RosterQuery } from "@/lib/portal/roster";

/**
 * The developer's organization's roster: a page of members, every role,
 * newest first (`cursor`, `status`); add 1 to 500 members (the organization
 * API's `addMembers` with its defaults: notify, invite `auto`) -> 201
 * `{ created, skipped, notified }`, or 400 with `data.errors` per field.
 */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "developer", query: RosterQuery }, async ({ developer, query }) => listRosterPage(developer.organizationId, query)),
  POST: apiRoute({ auth: "developer", body: PortalAddMembersBody }, async ({ developer, body }) =>
    reply(await addMembers(portalRosterCaller(developer), { members: body.members, notify: true, invite: "auto" }), 201),
  ),
});
