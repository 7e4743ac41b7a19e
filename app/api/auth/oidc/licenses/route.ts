import { routeMethods } from "@/lib/http/api-route";
import { licencesRoute } from "@/lib/server/oidc-routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: licencesRoute });
