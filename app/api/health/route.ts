import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { checkHealth } from "@/lib/health/check-health";
import * as healthApi from "@/lib/openapi/operations/health";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute(healthApi.readiness, async ({ requestId }) => checkHealth(requestId)),
});
