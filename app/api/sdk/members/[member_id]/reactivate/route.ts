import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { reactivateMember } from "@/lib/org/member-lifecycle";
import * as organizationApi from "@/lib/openapi/operations/organization";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  PATCH: apiRoute(organizationApi.reactivateMember, async ({ app, params }) => reactivateMember(app, params.member_id), { rawBody: true }),
});
