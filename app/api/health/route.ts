import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { checkHealth } from "@/lib/health/check-health";

export const { GET, POST, PUT, PATCH, DELETE } = routeMethods({
  GET: apiRoute({ auth: "none" }, async () => checkHealth()),
});
