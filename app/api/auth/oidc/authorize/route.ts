import { routeMethods } from "@/lib/http/api-route";
import { authorizeRoute } from "@/lib/oidc/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: authorizeRoute, POST: authorizeRoute });
