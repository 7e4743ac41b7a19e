import { z } from "zod";
import { operation, operations } from "@/lib/http/operation";

/** GET /api/v2/openapi.json: this document. */
export const getOpenApiDocument = operation({
    method: "get",
    path: "/api/v2/openapi.json",
    operationId: "getOpenApiDocument",
    summary: "This OpenAPI 3.1 document",
    description: "Generated from the zod schemas the routes validate with (lib/openapi/). Rendered at /docs.",
    tag: "Reference",
    auth: "none",
    success: { status: 200, description: "The document.", body: "json", schema: z.looseObject({ openapi: z.literal("3.1.0") }) },
    errors: [],
  });

export const REFERENCE_OPERATIONS = operations([
  getOpenApiDocument,
]);
