import { developerActor } from "@/lib/audit/actors";
import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { findAppOfDeveloper } from "@/lib/portal/access";
import { settleCheckInReview } from "@/lib/sessions/review-check";
import { CheckReviewBody } from "@/lib/sessions/schemas";

/**
 * The review queue's "Confirm live person" / "Same person" / "Accept
 * document" and their refusals: the API's POST
 * /api/v2/session/{id}/checks/{type}/review (same body, same domain
 * function, same 400/409s), audited with the signed-in developer as actor.
 */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "developer", body: CheckReviewBody }, async ({ developer, params, body, requestId }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    return settleCheckInReview(app, params.sessionId!, params.type!, body, { actor: developerActor(developer.email), requestId });
  }),
});
