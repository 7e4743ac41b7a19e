import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { resendEmailVerification } from "@/lib/portal/email-verification";

/** "Send the link again": a new email verification link for the signed-in, unverified developer. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "developer" }, async ({ developer }) => reply(await resendEmailVerification(developer), 202)),
});
