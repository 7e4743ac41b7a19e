import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { TestEventBody } from "@/lib/webhooks/schemas";
import { presentTestEvent, sendTestEvent, type SentTestEvent } from "@/lib/webhooks/test-events";
import * as verificationApi from "@/lib/openapi/operations/verification";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute(verificationApi.sendTestWebhookEvent, async ({ app, params, body, commitAnswer }) => {
    const answer = (sent: SentTestEvent) => reply(presentTestEvent(sent), 202);
    return answer(await sendTestEvent(app.id, params.id!, body.kind, commitAnswer?.(answer)));
  }),
});
