import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { clientIp } from "@/lib/http/client-ip";
import { assertPortalFormPost } from "@/lib/portal/public-form";
import { SignUpBody } from "@/lib/portal/schemas";
import { signUpDeveloper } from "@/lib/portal/sign-up";

/** Portal sign-up (the page then signs in through next-auth); the welcome credit waits for the mailed link. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "none", beforeBody: assertPortalFormPost, body: SignUpBody }, async ({ req, body }) =>
    reply(await signUpDeveloper(body, clientIp(req)), 201),
  ),
});
