import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { addMembers, AddMembersBody } from "@/lib/org/add-members";
import { listMembers } from "@/lib/org/list-members";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "client" }, async ({ app }) => listMembers(app)),
  POST: apiRoute({ auth: "client", body: AddMembersBody }, async ({ app, body, commitAnswer }) =>
    reply(await addMembers(app, body, commitAnswer ? (tx, added) => commitAnswer(tx, reply(added, 201)) : undefined), 201),
  ),
});
