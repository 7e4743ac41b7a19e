import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { findAppOfDeveloper } from "@/lib/portal/access";
import { listDeliveryPage } from "@/lib/webhooks/deliveries";
import { DeliveryPageQuery } from "@/lib/webhooks/schemas";

/** One page of the app's delivery log, newest first, every attempt included (`cursor` from the previous page; `webhook_id`, `state` filter; `limit`, 20 by default). */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "developer", query: DeliveryPageQuery }, async ({ developer, params, query }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    return listDeliveryPage(app.id, { cursor: query.cursor, webhookId: query.webhook_id, state: query.state, limit: query.limit });
  }),
});
