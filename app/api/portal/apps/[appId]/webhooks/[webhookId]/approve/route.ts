import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { findAppOfDeveloper } from "@/lib/portal/access";
import { approveWebhookEndpoint } from "@/lib/tenancy/webhook-endpoints";

/** Approves one of the app's webhooks: it then receives the app's events and may be a session's callback. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "developer" }, async ({ developer, params }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    return { webhook: await approveWebhookEndpoint(app.id, params.webhookId!) };
  }),
});
