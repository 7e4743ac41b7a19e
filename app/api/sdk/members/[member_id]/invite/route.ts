import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { InviteBody, resendInvite, type ResentInvite } from "@/lib/org/invitations";
import * as organizationApi from "@/lib/openapi/operations/organization";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute(organizationApi.resendInvite, async ({ app, params, body, commitAnswer }) => {
    const answer = (sent: ResentInvite, headers: Record<string, string> = {}) => reply(sent, 200, headers);
    const sent = await resendInvite(app, params.member_id ?? "", body?.notify ?? true, commitAnswer?.(answer));
    return answer(sent.data, sent.headers);
  }),
});
