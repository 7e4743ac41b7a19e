import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { issueChallenge } from "@/lib/checks/liveness-challenges";
import { ChallengeBody } from "@/lib/liveness/challenges";
import * as hostedFlowApi from "@/lib/openapi/operations/hosted-flow";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute(hostedFlowApi.issueLivenessChallenge, async ({ session, body }) => reply(await issueChallenge(session, body), 201)),
});
