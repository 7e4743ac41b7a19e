import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { reactivateMember } from "@/lib/org/member-lifecycle";
import { portalRosterCaller } from "@/lib/portal/roster";

/** Reactivates a deactivated member (`reactivateMember`): active while its account exists, else invited; `{ member }`. 402 when past due. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "developer" }, async ({ developer, params }) => reactivateMember(portalRosterCaller(developer), params.member_id ?? "")),
});
