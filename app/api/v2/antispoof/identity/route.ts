import { submitIdentityBurst } from "@/lib/checks/run-identity-burst";
import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { BURST_FRAMES } from "@/lib/liveness/challenges";
import * as hostedFlowApi from "@/lib/openapi/operations/hosted-flow";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute(hostedFlowApi.submitIdentityBurst, async ({ session, upload }) => submitIdentityBurst(session, upload!), {
    upload: { maxFiles: BURST_FRAMES.max },
  }),
});
