import { submitLivenessBurst } from "@/lib/checks/run-liveness";
import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { BURST_FRAMES } from "@/lib/liveness/challenges";
import * as hostedFlowApi from "@/lib/openapi/operations/hosted-flow";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute(hostedFlowApi.submitLivenessBurst, async ({ session, upload }) => submitLivenessBurst(session, upload!), {
    upload: { maxFiles: BURST_FRAMES.max },
  }),
});
