import { apiRoute, Reply, routeMethods } from "@/lib/http/api-route";
import { REFERENCE_PAGE_CSP, referencePageHtml } from "@/lib/docs/reference-page";

/** GET /docs: the API reference, rendered from /api/v2/openapi.json. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "none" }, async () =>
    Reply.html(await referencePageHtml(), 200, { "Content-Security-Policy": REFERENCE_PAGE_CSP, "Cache-Control": "public, max-age=300" }),
  ),
});
