import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { IdentityQuery, readIdentity } from "@/lib/identity/read-identity";
import * as verificationApi from "@/lib/openapi/operations/verification";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute(verificationApi.getIdentity, async ({ app, query }) => readIdentity(app, query)),
});
