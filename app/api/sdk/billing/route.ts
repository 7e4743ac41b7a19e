import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { readBilling } from "@/lib/org/billing/read-billing";
import * as organizationApi from "@/lib/openapi/operations/organization";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute(organizationApi.readBilling, async ({ app }) => readBilling(app)),
});
