import { apiRoute, ROUTE_OPERATION, routeMethods } from "@/lib/http/api-route";
import { REQUEST_ID_HEADER, requestIdOf } from "@/lib/http/core/request";
import * as healthApi from "@/lib/openapi/operations/health";

/**
 * GET /api/health/live: liveness probe for load balancers. Touches nothing
 * (no database, no core pipeline), so it is also the ceiling a route of
 * this stack can reach; the benchmark compares the real endpoints against
 * it. It still names its documented operation, whose answer it writes by
 * hand. Other methods answer through the core (405, OPTIONS).
 */
function live(req: Request) {
  return Promise.resolve(
    Response.json(
      { success: true, data: { status: "ok" } },
      { headers: { [REQUEST_ID_HEADER]: requestIdOf(req.headers), "Cache-Control": "no-store" } },
    ),
  );
}

const methods = routeMethods({ GET: apiRoute(healthApi.liveness, async () => ({ status: "ok" as const })) });
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methods;
export const GET = Object.assign(live, { [ROUTE_OPERATION]: healthApi.liveness });
