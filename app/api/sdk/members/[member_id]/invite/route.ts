import { z } from "zod";
import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { resendInvite } from "@/lib/org/invitations";

const InviteBody = z.object({ notify: z.boolean().default(true) }).strict().optional();

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "client", body: InviteBody }, async ({ app, params, body }) => {
    const sent = await resendInvite(app, params.member_id ?? "", body?.notify ?? true);
    return reply(sent.data, 200, sent.headers);
  }),
});
