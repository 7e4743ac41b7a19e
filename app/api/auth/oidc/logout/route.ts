import { routeMethods } from "@/lib/http/api-route";
import { logoutPostRoute, logoutRoute } from "@/lib/server/oidc-routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: logoutRoute, POST: logoutPostRoute });
