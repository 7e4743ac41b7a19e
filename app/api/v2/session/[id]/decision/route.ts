import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { getDecision } from "@/lib/sessions/read-sessions";
import * as verificationApi from "@/lib/openapi/operations/verification";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute(verificationApi.getSessionDecision, async ({ app, params }) => getDecision(app, params.id!)),
});
