import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { findAppOfDeveloper } from "@/lib/portal/access";
import { resendDelivery } from "@/lib/webhooks/deliveries";

/** Sends a delivery's event again: 202, a new delivery (its own attempts) of the same event id. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "developer" }, async ({ developer, params }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    return reply(await resendDelivery(app.id, params.deliveryId!), 202);
  }),
});
