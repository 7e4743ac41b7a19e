import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { createSession } from "@/lib/sessions/create-session";
import { listSessions } from "@/lib/sessions/read-sessions";
import { CreateSessionBody, ListSessionsQuery } from "@/lib/sessions/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "apiKey", body: CreateSessionBody }, async ({ app, body, commitAnswer }) =>
    reply(await createSession(app, body, commitAnswer ? (tx, created) => commitAnswer(tx, reply(created, 201)) : undefined), 201),
  ),
  GET: apiRoute({ auth: "apiKey", query: ListSessionsQuery }, async ({ app, query }) => listSessions(app, query)),
});
