import { routeMethods } from "@/lib/http/api-route";
import { discoveryAliasRoute } from "@/lib/server/oidc-routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: discoveryAliasRoute });
