import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { readBilling } from "@/lib/org/billing/read-billing";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "client" }, async ({ app }) => readBilling(app)),
});
