import { developerActor } from "@/lib/audit/actors";
import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { findAppOfDeveloper } from "@/lib/portal/access";
import { RollBody } from "@/lib/tenancy/roll-window";
import { rotateWebhookSecret } from "@/lib/tenancy/webhook-endpoints";

/** Rotates a webhook's signing secret: the new one is in this answer only; the old one signs too for `expire_previous_in` seconds (default 24 hours). */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "developer", body: RollBody }, async ({ developer, params, body, requestId }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    const rotated = await rotateWebhookSecret(app.id, params.webhookId!, body.expire_previous_in, { actor: developerActor(developer.email), requestId });
    return { webhook_id: rotated.webhookId, secret: rotated.secret, previous_secret_expires_at: rotated.webhook.previous_secret_expires_at };
  }),
});
