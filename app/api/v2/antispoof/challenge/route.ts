import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { issueChallenge } from "@/lib/checks/liveness-challenges";
import { ChallengeBody } from "@/lib/liveness/challenges";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "sessionToken", body: ChallengeBody }, async ({ session, body }) => reply(await issueChallenge(session, body), 201)),
});
