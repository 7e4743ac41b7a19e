import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { getSessionSummary } from "@/lib/sessions/read-sessions";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "apiKey" }, async ({ app, params }) => getSessionSummary(app, params.id!)),
});
