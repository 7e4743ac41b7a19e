import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { addMembers, AddMembersBody, type AddedMembers } from "@/lib/org/add-members";
import { listMembers } from "@/lib/org/list-members";
import * as organizationApi from "@/lib/openapi/operations/organization";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute(organizationApi.listMembers, async ({ app }) => listMembers(app)),
  POST: apiRoute(organizationApi.addMembers, async ({ app, body, commitAnswer }) => {
    const answer = (added: AddedMembers) => reply(added, 201);
    return answer(await addMembers(app, body, commitAnswer?.(answer)));
  }),
});
