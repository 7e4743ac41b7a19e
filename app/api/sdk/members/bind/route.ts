import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { BindBody, bindMember } from "@/lib/org/member-lifecycle";
import * as organizationApi from "@/lib/openapi/operations/organization";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute(organizationApi.bindMember, async ({ app, body }) => bindMember(app, body)),
});
