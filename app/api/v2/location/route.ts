import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { LocationBody, submitLocation } from "@/lib/flow/submit-location";
import * as hostedFlowApi from "@/lib/openapi/operations/hosted-flow";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute(hostedFlowApi.submitLocation, async ({ session, body }) => submitLocation(session, body)),
});
