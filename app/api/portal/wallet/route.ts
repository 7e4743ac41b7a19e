import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { listLedgerEntries } from "@/lib/billing/list-ledger";
import { LedgerQuery } from "@/lib/portal/schemas";

/** The organization's balance and one page of its ledger (newest first; `cursor` from the previous page). */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "developer", query: LedgerQuery }, ({ developer, query }) =>
    listLedgerEntries(developer.organizationId, { cursor: query.cursor }),
  ),
});
