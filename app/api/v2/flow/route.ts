import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { flowState } from "@/lib/flow/flow-state";
import * as hostedFlowApi from "@/lib/openapi/operations/hosted-flow";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute(hostedFlowApi.getFlow, async ({ session }) => flowState(session)),
});
