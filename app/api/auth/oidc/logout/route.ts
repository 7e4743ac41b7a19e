import { routeMethods } from "@/lib/http/api-route";
import { logoutRoute } from "@/lib/oidc/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: logoutRoute, POST: logoutRoute });
