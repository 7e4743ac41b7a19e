import { apiRoute, Reply, routeMethods } from "@/lib/http/api-route";
import { openApiDocument } from "@/lib/openapi/document";

/** GET /api/v2/openapi.json: the OpenAPI 3.1 document of the public surface (lib/openapi/). */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "none" }, async () => Reply.json(openApiDocument(), 200, { "Cache-Control": "public, max-age=300" })),
});
