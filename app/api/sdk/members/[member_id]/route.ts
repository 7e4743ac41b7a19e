import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { removeMember, RemoveQuery } from "@/lib/org/member-lifecycle";
import * as organizationApi from "@/lib/openapi/operations/organization";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  DELETE: apiRoute(organizationApi.removeMember,
    async ({ app, params, query }) => removeMember(app, params.member_id, query.permanent === "true" || query.permanent === "1"),
    { rawBody: true },
  ),
});
