import { routeMethods } from "@/lib/http/api-route";
import { credentialRoute } from "@/lib/server/oidc-routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ POST: credentialRoute });
