import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { deleteWebhookEndpoint, setWebhookEndpointActive } from "@/lib/tenancy/webhook-endpoints";
import { SetWebhookActiveBody } from "@/lib/webhooks/schemas";
import * as verificationApi from "@/lib/openapi/operations/verification";

/** One webhook of the key's app (another app's is 404): disable or enable it (`{ "active": false | true }`), or delete it. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  PATCH: apiRoute(verificationApi.setWebhookActive, async ({ app, params, body, actor, requestId }) => ({
    webhook: await setWebhookEndpointActive(app.id, params.id!, body.active, { actor, requestId }),
  })),
  DELETE: apiRoute(verificationApi.deleteWebhook, async ({ app, params, actor, requestId }) => deleteWebhookEndpoint(app.id, params.id!, { actor, requestId })),
});
