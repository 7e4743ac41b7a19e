import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { removeMember } from "@/lib/org/member-lifecycle";
import { portalRosterCaller } from "@/lib/portal/roster";

/** Removes a member from the roster for good (`removeMember`, permanent): `{ member: null, removed: true }` or `already_removed`. The account is kept. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  DELETE: apiRoute({ auth: "developer" }, async ({ developer, params }) => removeMember(portalRosterCaller(developer), params.member_id ?? "", true)),
});
