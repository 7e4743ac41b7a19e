import { routeMethods } from "@/lib/http/api-route";
import { faceChallengeRoute } from "@/lib/oidc/interaction-face";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ POST: faceChallengeRoute });
