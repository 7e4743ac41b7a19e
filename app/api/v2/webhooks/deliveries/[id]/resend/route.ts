import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { resendDelivery, type ResentDelivery } from "@/lib/webhooks/deliveries";
import * as verificationApi from "@/lib/openapi/operations/verification";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute(verificationApi.resendWebhookDelivery, async ({ app, params, commitAnswer }) => {
    const answer = (resent: ResentDelivery) => reply(resent, 202);
    return answer(await resendDelivery(app.id, params.id!, commitAnswer?.(answer)));
  }),
});
