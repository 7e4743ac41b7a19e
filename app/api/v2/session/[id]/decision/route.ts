import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { getDecision } from "@/lib/sessions/read-sessions";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "apiKey" }, async ({ app, params }) => getDecision(app, params.id!)),
});
