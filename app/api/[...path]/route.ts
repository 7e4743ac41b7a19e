import { ApiError } from "@/lib/http/api-error";
import { apiRoute } from "@/lib/http/api-route";

/** Any /api path without a route: 404 `endpoint_not_found` in the envelope. */
const notFound = apiRoute({ auth: "none" }, async ({ req }) => {
  throw new ApiError("endpoint_not_found", { message: `No endpoint ${req.method} ${new URL(req.url).pathname}` });
});

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE, notFound as OPTIONS };
