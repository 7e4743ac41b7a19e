import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { readBilling } from "@/lib/org/billing/read-billing";

/** The organization's seat subscription, seats, wallet balance and invoices (`readBilling`, as `GET /api/sdk/billing`). */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "developer" }, async ({ developer }) => readBilling({ organizationId: developer.organizationId })),
});
