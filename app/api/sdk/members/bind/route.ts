import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { BindBody, bindMember } from "@/lib/org/member-lifecycle";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "client", body: BindBody }, async ({ app, body }) => bindMember(app, body)),
});
