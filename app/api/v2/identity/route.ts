import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { IdentityQuery, readIdentity } from "@/lib/identity/read-identity";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "apiKey", query: IdentityQuery }, async ({ app, query }) => readIdentity(app, query)),
});
