import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { resetPassword, ResetPasswordBody } from "@/lib/portal/password-reset";
import { assertPortalFormPost } from "@/lib/portal/public-form";

/** Sets a new password with the single-use token of a reset link. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "none", beforeBody: assertPortalFormPost, body: ResetPasswordBody }, ({ body }) => resetPassword(body)),
});
