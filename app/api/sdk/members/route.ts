import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { listMembers } from "@/lib/org/list-members";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "client" }, async ({ app }) => listMembers(app)),
});
