import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { TestEventBody } from "@/lib/webhooks/schemas";
import { sendTestEvent } from "@/lib/webhooks/test-events";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "apiKey", body: TestEventBody }, async ({ app, params, body }) => {
    const sent = await sendTestEvent(app.id, params.id!, body.kind);
    return reply({ event_id: sent.event_id, kind: sent.kind, deliveries: sent.deliveries }, 202);
  }),
});
