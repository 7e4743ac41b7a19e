import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { reviewSession } from "@/lib/sessions/review-session";
import { ReviewBody } from "@/lib/sessions/schemas";
import * as verificationApi from "@/lib/openapi/operations/verification";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  PATCH: apiRoute(verificationApi.reviewSession, async ({ app, params, body, actor, requestId }) =>
    reviewSession(app, params.id!, body.status, { actor, requestId }),
  ),
});
