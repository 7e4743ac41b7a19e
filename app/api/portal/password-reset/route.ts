import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { clientIp } from "@/lib/http/client-ip";
import { requestPasswordReset, RequestPasswordResetBody } from "@/lib/portal/password-reset";
import { assertPortalFormPost } from "@/lib/portal/public-form";

/** "Forgot password": 202 whether or not the email has an account. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "none", beforeBody: assertPortalFormPost, body: RequestPasswordResetBody }, async ({ req, body }) =>
    reply(await requestPasswordReset(body, clientIp(req)), 202),
  ),
});
