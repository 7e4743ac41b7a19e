import { routeMethods } from "@/lib/http/api-route";
import { authorizeRoute } from "@/lib/oidc/routes";

export const { GET, POST, PUT, PATCH, DELETE } = routeMethods({ GET: authorizeRoute, POST: authorizeRoute });
