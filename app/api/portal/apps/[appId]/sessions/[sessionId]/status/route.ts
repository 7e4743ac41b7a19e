import { developerActor } from "@/lib/audit/actors";
import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { findAppOfDeveloper } from "@/lib/portal/access";
import { reviewSession } from "@/lib/sessions/review-session";
import { ReviewBody } from "@/lib/sessions/schemas";

/**
 * The manual decision from the review queue: the API's PATCH
 * /api/v2/session/{id}/status (same body, same domain function, same 409s),
 * audited with the signed-in developer as actor.
 */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  PATCH: apiRoute({ auth: "developer", body: ReviewBody }, async ({ developer, params, body, requestId }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    return reviewSession(app, params.sessionId!, body.status, { actor: developerActor(developer.email), requestId });
  }),
});
