import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { deactivateMember } from "@/lib/org/member-lifecycle";
import { portalRosterCaller } from "@/lib/portal/roster";

/** Deactivates a member (`deactivateMember`): no longer a seat, its sign-ins to the organization's apps end; `{ member }`. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "developer" }, async ({ developer, params }) => deactivateMember(portalRosterCaller(developer), params.member_id ?? "")),
});
