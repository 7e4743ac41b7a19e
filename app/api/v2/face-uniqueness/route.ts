import { submitSelfie } from "@/lib/checks/run-selfie";
import { apiRoute, routeMethods } from "@/lib/http/api-route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "sessionToken", upload: { maxFiles: 1 } }, async ({ session, upload }) => submitSelfie(session, upload!)),
});
