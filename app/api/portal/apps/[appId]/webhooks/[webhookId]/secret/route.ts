import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { findAppOfDeveloper } from "@/lib/portal/access";
import { rotateWebhookSecret } from "@/lib/tenancy/webhook-endpoints";

/** Rotates a webhook's signing secret: the new one is in this answer only; deliveries from now on are signed with it. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "developer" }, async ({ developer, params }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    const rotated = await rotateWebhookSecret(app.id, params.webhookId!);
    return { webhook_id: rotated.webhookId, secret: rotated.secret };
  }),
});
