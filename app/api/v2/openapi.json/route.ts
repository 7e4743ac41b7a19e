import { apiRoute, Reply, routeMethods } from "@/lib/http/api-route";
import { OPENAPI_VERSION, openApiDocument } from "@/lib/openapi/document";
import * as referenceApi from "@/lib/openapi/operations/reference";

/** GET /api/v2/openapi.json: the OpenAPI 3.1 document of the public surface (lib/openapi/). */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute(referenceApi.getOpenApiDocument, async () =>
    Reply.json({ ...openApiDocument(), openapi: OPENAPI_VERSION }, 200, { "Cache-Control": "public, max-age=300" }),
  ),
});
