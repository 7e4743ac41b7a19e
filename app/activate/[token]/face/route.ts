import { routeMethods } from "@/lib/http/api-route";
import { activationFaceRoute } from "@/lib/org/activation-routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ POST: activationFaceRoute });
