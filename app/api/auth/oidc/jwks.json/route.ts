import { routeMethods } from "@/lib/http/api-route";
import { jwksRoute } from "@/lib/server/oidc-routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: jwksRoute });
