import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { reactivateMember } from "@/lib/org/member-lifecycle";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  PATCH: apiRoute({ auth: "client", rawBody: true }, async ({ app, params }) => reactivateMember(app, params.member_id ?? "")),
});
