import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { RecoveryBody, startRecovery, type RecoveryAnswer } from "@/lib/org/recovery/start-recovery";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "client", body: RecoveryBody }, async ({ app, body, commitAnswer }) => {
    const answer = (started: RecoveryAnswer) => reply(started);
    return answer(await startRecovery(app, body, commitAnswer?.(answer)));
  }),
});
