import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { issueChallenge } from "@/lib/liveness/challenges";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "sessionToken" }, async ({ session }) => reply(await issueChallenge(session), 201)),
});
