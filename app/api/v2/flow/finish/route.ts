import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { finishFlow } from "@/lib/flow/finish-flow";
import * as hostedFlowApi from "@/lib/openapi/operations/hosted-flow";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute(hostedFlowApi.finishFlow, async ({ session }) => finishFlow(session)),
});
