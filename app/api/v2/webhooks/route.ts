import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { listWebhookEndpoints } from "@/lib/webhooks/deliveries";
import * as verificationApi from "@/lib/openapi/operations/verification";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute(verificationApi.listWebhooks, async ({ app }) => ({ webhooks: await listWebhookEndpoints(app.id) })),
});
