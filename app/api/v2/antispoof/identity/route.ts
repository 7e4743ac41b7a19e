import { submitIdentityBurst } from "@/lib/checks/run-identity-burst";
import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { BURST_FRAMES } from "@/lib/liveness/challenges";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "sessionToken", upload: { maxFiles: BURST_FRAMES.max } }, async ({ session, upload }) =>
    submitIdentityBurst(session, upload!),
  ),
});
