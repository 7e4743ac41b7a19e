import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { addMembers, AddMembersBody, type AddedMembers } from "@/lib/org/add-members";
import { listMembers } from "@/lib/org/list-members";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "client" }, async ({ app }) => listMembers(app)),
  POST: apiRoute({ auth: "client", body: AddMembersBody }, async ({ app, body, commitAnswer }) => {
    const answer = (added: AddedMembers) => reply(added, 201);
    return answer(await addMembers(app, body, commitAnswer?.(answer)));
  }),
});
