import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { listPortalRecoveryLog } from "@/lib/portal/recovery-log";

/** The organization's account recovery log, newest first (`listRecoveryLog`), each session with its app for a link. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "developer" }, async ({ developer }) => listPortalRecoveryLog(developer.organizationId)),
});
