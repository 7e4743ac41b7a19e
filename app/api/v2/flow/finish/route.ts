import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { finishFlow } from "@/lib/flow/finish-flow";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "sessionToken", answersDecidedSession: true }, async ({ session }) => finishFlow(session)),
});
