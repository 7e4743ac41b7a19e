import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { resolveMember, ResolveBody } from "@/lib/org/member-lifecycle";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "client", body: ResolveBody }, async ({ app, body }) => resolveMember(app, body)),
});
