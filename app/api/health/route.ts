import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { checkHealth } from "@/lib/health/check-health";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "none" }, async ({ requestId }) => checkHealth(requestId)),
});
