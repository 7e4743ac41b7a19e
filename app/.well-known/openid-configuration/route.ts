import { routeMethods } from "@/lib/http/api-route";
import { discoveryRoute } from "@/lib/server/oidc-routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: discoveryRoute });
