import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { resendInvite } from "@/lib/org/invitations";
import { portalRosterCaller } from "@/lib/portal/roster";

/**
 * (Re-)invites a member (`resendInvite`, notify): `{ member, activation_link, notified }`;
 * the old link stops working. 409 `already_active` / `deactivated`, 404, 429
 * (10 per minute per developer).
 */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "developer" }, async ({ developer, params }) => {
    const sent = await resendInvite(portalRosterCaller(developer), params.member_id ?? "", true);
    return reply(sent.data, 200, sent.headers);
  }),
});
