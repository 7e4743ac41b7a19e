import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { findAppOfDeveloper } from "@/lib/portal/access";
import { TestEventBody } from "@/lib/webhooks/schemas";
import { presentTestEvent, sendTestEvent } from "@/lib/webhooks/test-events";

/** Sends a simulated event of one kind to one of the app's webhooks (spec 6 test tooling): 202, delivered by the worker. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "developer", body: TestEventBody }, async ({ developer, params, body }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    return reply(presentTestEvent(await sendTestEvent(app.id, params.webhookId!, body.kind)), 202);
  }),
});
