import { submitSelfie } from "@/lib/checks/run-selfie";
import { apiRoute, routeMethods } from "@/lib/http/api-route";
import * as hostedFlowApi from "@/lib/openapi/operations/hosted-flow";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute(hostedFlowApi.submitSelfie, async ({ session, upload }) => submitSelfie(session, upload!), { upload: { maxFiles: 1 } }),
});
