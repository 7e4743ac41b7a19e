import { routeMethods } from "@/lib/http/api-route";
import { authorizePostRoute, authorizeRoute } from "@/lib/server/oidc-routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: authorizeRoute, POST: authorizePostRoute });
