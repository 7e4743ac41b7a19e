import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { confirmEmail, ConfirmEmailBody } from "@/lib/portal/email-verification";
import { assertPortalFormPost } from "@/lib/portal/public-form";

/** The email verification link's page posts its token here: the email is verified and the welcome credit granted, once. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "none", beforeBody: assertPortalFormPost, body: ConfirmEmailBody }, ({ body }) => confirmEmail(body)),
});
