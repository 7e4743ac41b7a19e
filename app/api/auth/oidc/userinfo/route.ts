import { routeMethods } from "@/lib/http/api-route";
import { userinfoRoute } from "@/lib/oidc/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: userinfoRoute, POST: userinfoRoute });
