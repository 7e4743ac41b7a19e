import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { LocationBody, submitLocation } from "@/lib/flow/submit-location";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "sessionToken", body: LocationBody }, async ({ session, body }) => submitLocation(session, body)),
});
