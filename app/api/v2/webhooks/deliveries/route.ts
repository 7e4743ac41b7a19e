import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { listDeliveries } from "@/lib/webhooks/deliveries";
import { DeliveriesQuery } from "@/lib/webhooks/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "apiKey", query: DeliveriesQuery }, async ({ app, query }) => ({
    deliveries: await listDeliveries(app.id, query.limit),
  })),
});
