import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { deactivateMember } from "@/lib/org/member-lifecycle";
import * as organizationApi from "@/lib/openapi/operations/organization";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  PATCH: apiRoute(organizationApi.deactivateMember, async ({ app, params }) => deactivateMember(app, params.member_id), { rawBody: true }),
});
