import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { findAppOfDeveloper } from "@/lib/portal/access";
import { ReviewQueueQuery } from "@/lib/sessions/schemas";
import { listReviewQueue } from "@/lib/sessions/session-pages";

/** The app's IN_REVIEW sessions, oldest first, with checks, the engine's reasons and kept images (`cursor` for the next page). */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "developer", query: ReviewQueueQuery }, async ({ developer, params, query }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    return listReviewQueue(app, query);
  }),
});
