import { routeMethods } from "@/lib/http/api-route";
import { tokenRoute } from "@/lib/server/oidc-routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ POST: tokenRoute });
