import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { findAppOfDeveloper } from "@/lib/portal/access";
import { createWebhookEndpoint } from "@/lib/tenancy/webhook-endpoints";
import { listWebhookEndpoints } from "@/lib/webhooks/deliveries";
import { RegisterWebhookBody } from "@/lib/webhooks/schemas";

/** An app's webhooks (no secrets); register one (its signing secret in this answer only; approval is a separate step). */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "developer" }, async ({ developer, params }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    return { webhooks: await listWebhookEndpoints(app.id) };
  }),
  POST: apiRoute({ auth: "developer", body: RegisterWebhookBody }, async ({ developer, params, body }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    const hook = await createWebhookEndpoint({ appId: app.id, url: body.url });
    return reply({ webhook_id: hook.webhookId, url: hook.url, secret: hook.secret, approved: hook.approved, active: hook.active }, 201);
  }),
});
