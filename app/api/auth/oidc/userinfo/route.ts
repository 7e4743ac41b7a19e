import { routeMethods } from "@/lib/http/api-route";
import { userinfoPostRoute, userinfoRoute } from "@/lib/server/oidc-routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: userinfoRoute, POST: userinfoPostRoute });
