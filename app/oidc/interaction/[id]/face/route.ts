import { routeMethods } from "@/lib/http/api-route";
import { faceBurstRoute } from "@/lib/oidc/interaction-face";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ POST: faceBurstRoute });
