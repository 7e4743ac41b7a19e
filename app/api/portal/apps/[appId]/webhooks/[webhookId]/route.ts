import { developerActor } from "@/lib/audit/actors";
import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { findAppOfDeveloper } from "@/lib/portal/access";
import { deleteWebhookEndpoint, setWebhookEndpointActive } from "@/lib/tenancy/webhook-endpoints";
import { SetWebhookActiveBody } from "@/lib/webhooks/schemas";

/** One of the app's webhooks: disable or enable it, or delete it (as PATCH and DELETE /api/v2/webhooks/{id}), audited with the signed-in developer as actor. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  PATCH: apiRoute({ auth: "developer", body: SetWebhookActiveBody }, async ({ developer, params, body, requestId }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    return { webhook: await setWebhookEndpointActive(app.id, params.webhookId!, body.active, { actor: developerActor(developer.email), requestId }) };
  }),
  DELETE: apiRoute({ auth: "developer" }, async ({ developer, params, requestId }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    return deleteWebhookEndpoint(app.id, params.webhookId!, { actor: developerActor(developer.email), requestId });
  }),
});
