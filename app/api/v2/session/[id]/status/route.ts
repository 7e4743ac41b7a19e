import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { reviewSession } from "@/lib/sessions/review-session";
import { ReviewBody } from "@/lib/sessions/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  PATCH: apiRoute({ auth: "apiKey", body: ReviewBody }, async ({ app, params, body, actor, requestId }) =>
    reviewSession(app, params.id!, body.status, { actor, requestId }),
  ),
});
