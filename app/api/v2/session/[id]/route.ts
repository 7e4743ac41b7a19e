import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { getSessionSummary } from "@/lib/sessions/read-sessions";
import * as verificationApi from "@/lib/openapi/operations/verification";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute(verificationApi.getSession, async ({ app, params }) => getSessionSummary(app, params.id!)),
});
