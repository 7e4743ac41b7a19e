import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { findAppOfDeveloper } from "@/lib/portal/access";
import { createTestSession } from "@/lib/sessions/test-session";

/** A session of this workflow made as POST /api/v2/session makes it; 201 with the hosted page's URL. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "developer" }, async ({ developer, params }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    return reply(await createTestSession(app, params.workflowId!), 201);
  }),
});
