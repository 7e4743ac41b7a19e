import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { resolveMember, ResolveBody } from "@/lib/org/member-lifecycle";
import * as organizationApi from "@/lib/openapi/operations/organization";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute(organizationApi.resolveMember, async ({ app, body }) => resolveMember(app, body)),
});
