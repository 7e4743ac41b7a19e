import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { listDeliveries } from "@/lib/webhooks/deliveries";
import { DeliveriesQuery } from "@/lib/webhooks/schemas";
import * as verificationApi from "@/lib/openapi/operations/verification";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute(verificationApi.listWebhookDeliveries, async ({ app, query }) => ({
    deliveries: await listDeliveries(app.id, query.limit),
  })),
});
