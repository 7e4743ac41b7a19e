import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { RecoveryBody, startRecovery, type RecoveryAnswer } from "@/lib/org/recovery/start-recovery";
import * as organizationApi from "@/lib/openapi/operations/organization";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute(organizationApi.startRecovery, async ({ app, body, commitAnswer }) => {
    const answer = (started: RecoveryAnswer) => reply(started);
    return answer(await startRecovery(app, body, commitAnswer?.(answer)));
  }),
});
