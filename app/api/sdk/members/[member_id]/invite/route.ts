import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { InviteBody, resendInvite } from "@/lib/org/invitations";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "client", body: InviteBody }, async ({ app, params, body }) => {
    const sent = await resendInvite(app, params.member_id ?? "", body?.notify ?? true);
    return reply(sent.data, 200, sent.headers);
  }),
});
