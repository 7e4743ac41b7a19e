import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { findAppOfDeveloper } from "@/lib/portal/access";
import { SessionsPageQuery } from "@/lib/sessions/schemas";
import { listSessionsPage } from "@/lib/sessions/session-pages";

/** An app's sessions, newest first, filtered by `status` and `vendor_data` (blank = any), a page at a time (`cursor`). */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "developer", query: SessionsPageQuery }, async ({ developer, params, query }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    return listSessionsPage(app, query);
  }),
});
