import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { SignUpBody } from "@/lib/portal/schemas";
import { signUpDeveloper } from "@/lib/portal/sign-up";

/** Portal sign-up (the page then signs in through next-auth). */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "none", body: SignUpBody }, async ({ body }) => reply(await signUpDeveloper(body), 201)),
});
