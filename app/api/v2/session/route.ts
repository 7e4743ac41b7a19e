import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { createSession, type CreatedSession } from "@/lib/sessions/create-session";
import { listSessions } from "@/lib/sessions/read-sessions";
import { CreateSessionBody, ListSessionsQuery } from "@/lib/sessions/schemas";
import * as verificationApi from "@/lib/openapi/operations/verification";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute(verificationApi.createSession, async ({ app, body, commitAnswer }) => {
    const answer = (created: CreatedSession) => reply(created, 201);
    return answer(await createSession(app, body, commitAnswer?.(answer)));
  }),
  GET: apiRoute(verificationApi.listSessions, async ({ app, query }) => listSessions(app, query)),
});
