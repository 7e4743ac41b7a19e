import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { RollBody } from "@/lib/tenancy/roll-window";
import { rotateWebhookSecret } from "@/lib/tenancy/webhook-endpoints";
import * as verificationApi from "@/lib/openapi/operations/verification";

/** Rolls the signing secret of one webhook of the key's app (another app's is 404): the new secret once, the old one still signing for `expire_previous_in` seconds. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute(verificationApi.rollWebhookSecret, async ({ app, params, body, actor, requestId }) => {
    const rotated = await rotateWebhookSecret(app.id, params.id!, body.expire_previous_in, { actor, requestId });
    return { webhook: rotated.webhook, secret: rotated.secret };
  }),
});
