import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { removeMember, RemoveQuery } from "@/lib/org/member-lifecycle";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  DELETE: apiRoute({ auth: "client", rawBody: true, query: RemoveQuery }, async ({ app, params, query }) =>
    removeMember(app, params.member_id ?? "", query.permanent === "true" || query.permanent === "1"),
  ),
});
