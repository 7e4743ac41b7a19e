import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { findAppOfDeveloper } from "@/lib/portal/access";
import { getSessionDetail } from "@/lib/sessions/session-detail";

/** One session: summary and timestamps, checks with scores, the engine's reasons, kept images (IN_REVIEW) and the audit trail. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "developer" }, async ({ developer, params }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    return getSessionDetail(app, params.sessionId!);
  }),
});
