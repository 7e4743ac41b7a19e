import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { listWebhookEndpoints } from "@/lib/webhooks/deliveries";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "apiKey" }, async ({ app }) => ({ webhooks: await listWebhookEndpoints(app.id) })),
});
