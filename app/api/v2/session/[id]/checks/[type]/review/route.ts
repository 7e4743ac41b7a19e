import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { settleCheckInReview } from "@/lib/sessions/review-check";
import { CheckReviewBody } from "@/lib/sessions/schemas";
import * as verificationApi from "@/lib/openapi/operations/verification";

/**
 * A reviewer settles the `{type}` check (id_verification, liveness or
 * face_match; another type is 400) of an IN_REVIEW session (`passed` or
 * `failed`, with a reason); the session is then decided with PATCH .../status.
 */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute(verificationApi.reviewCheck, async ({ app, params, body, actor, requestId }) =>
    settleCheckInReview(app, params.id!, params.type!, body, { actor, requestId }),
  ),
});
