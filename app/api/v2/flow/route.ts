import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { flowState } from "@/lib/flow/flow-state";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "sessionToken" }, async ({ session }) => flowState(session)),
});
