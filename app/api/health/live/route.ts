import { newRequestId, REQUEST_ID_HEADER } from "@/lib/http/request-id";

/**
 * GET /api/health/live: liveness probe for load balancers. Touches nothing
 * (no database, no wrapper), so it is also the ceiling a route of this stack
 * can reach; the benchmark compares the real endpoints against it.
 */
export function GET() {
  return Response.json(
    { success: true, data: { status: "ok" } },
    { headers: { [REQUEST_ID_HEADER]: newRequestId(), "Cache-Control": "no-store" } },
  );
}
