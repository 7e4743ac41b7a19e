import { routeMethods } from "@/lib/http/api-route";
import { activationChallengeRoute } from "@/lib/org/activation-routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ POST: activationChallengeRoute });
