import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { RecoveryBody, startRecovery } from "@/lib/org/recovery/start-recovery";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "client", body: RecoveryBody }, async ({ app, body }) => startRecovery(app, body)),
});
