import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { resendDelivery } from "@/lib/webhooks/deliveries";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "apiKey" }, async ({ app, params }) => reply(await resendDelivery(app.id, params.id!), 202)),
});
