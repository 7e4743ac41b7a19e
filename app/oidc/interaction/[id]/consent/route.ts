import { routeMethods } from "@/lib/http/api-route";
import { interactionFormRoute } from "@/lib/oidc/form-route";
import { submitConsent } from "@/lib/oidc/interaction";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ POST: interactionFormRoute(submitConsent) });
